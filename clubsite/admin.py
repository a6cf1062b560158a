"""The admin site: the platform operator's, superusers only.

The admin runs with the club scope disabled (``members.clubs.middleware``), so every
page of it shows every club's rows; a staff login given view rights on people or games
would see every club. So only a superuser (the operator) may use it: staff without
superuser get the admin's login page, as anyone else. Clubs manage their own data on
their own pages. Installed by ``clubsite.apps.AdminConfig`` (Django's way to replace the
default admin site)."""

from django.contrib import admin


class SiteAdmin(admin.AdminSite):
    def has_permission(self, request):
        return request.user.is_active and request.user.is_superuser

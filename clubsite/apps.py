from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps


class ClubsiteConfig(AppConfig):
    name = "clubsite"
    verbose_name = "Club site"

    def ready(self):
        from clubsite import checks

        # The compiled catalogs: an error of check --deploy, a warning at start.
        checks.register()


class AdminConfig(admin_apps.AdminConfig):
    """``django.contrib.admin`` with the site's own admin site (superusers only)."""

    default = False  # "clubsite" alone installs ClubsiteConfig
    default_site = "clubsite.admin.SiteAdmin"

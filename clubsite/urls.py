from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.generic import RedirectView

from clubsite import views
from members.clubs import front, pwa
from members.clubs import views as clubs
from scoring.play.views.club_settings import club_settings

urlpatterns = [
    path("", front.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("app/", pwa.app_start, name="app_start"),
    path("language/", front.choose_language, name="choose_language"),
    path("display/", front.choose_display, name="choose_display"),
    path("accounts/login/", clubs.LoginView.as_view(), name="login"),
    path("accounts/clubs/", clubs.my_clubs, name="my_clubs"),
    path("settings/", club_settings, name="club_settings"),
    path(
        "accounts/reset/<uidb64>/<token>/",
        clubs.SetPasswordView.as_view(),
        name="password_reset_confirm",
    ),
    path("accounts/start-club/", clubs.club_signup, name="club_signup"),
    path("accounts/start-club/sent/", clubs.club_signup_sent, name="club_signup_sent"),
    path("accounts/start-club/<str:token>/", clubs.club_signup_confirm, name="club_signup_confirm"),
    path(
        "accounts/logout/",
        pwa.clears_offline_copies(auth_views.LogoutView.as_view()),
        name="logout",
    ),
    path(
        "accounts/password/",
        auth_views.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "accounts/password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    # The admin's own login form would count login failures under the User-Agent the
    # client sends, not its device (clubsite.middleware.login_device, clubsite.lockout):
    # everyone logs in on the site's login page, which comes back with ?next=.
    path(
        "admin/login/",
        RedirectView.as_view(pattern_name="login", query_string=True),
        name="admin_login",
    ),
    path("admin/", admin.site.urls),
    path("", include("members.urls")),
    path("", include("members.bookings.urls")),
    path("", include("members.money.urls")),
    path("", include("scoring.urls")),
]

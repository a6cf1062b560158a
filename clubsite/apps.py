from django.apps import AppConfig


class ClubsiteConfig(AppConfig):
    name = "clubsite"
    verbose_name = "Club site"

    def ready(self):
        from django.contrib.auth.signals import user_logged_in

        from clubsite import checks
        from clubsite.languages import remember_at_login

        # The compiled catalogs: an error of check --deploy, a warning at start.
        checks.register()

        # A member's own language is read with the login, not on every page.
        user_logged_in.connect(remember_at_login, dispatch_uid="clubsite-language-at-login")

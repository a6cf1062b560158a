from django.apps import AppConfig


class ClubsiteConfig(AppConfig):
    name = "clubsite"
    verbose_name = "Club site"

    def ready(self):
        from django.contrib.auth.signals import user_logged_in

        from clubsite.languages import remember_at_login

        # A member's own language is read with the login, not on every page.
        user_logged_in.connect(remember_at_login, dispatch_uid="clubsite-language-at-login")

        from django.db.models.signals import post_delete, post_migrate, post_save

        from clubsite.clubs.addresses import clubs_changed
        from members.models import Club, ClubSlugRedirect

        # The club of an address is kept in the shared cache: a change retires it.
        for model in (Club, ClubSlugRedirect):
            for signal in (post_save, post_delete):
                signal.connect(clubs_changed, sender=model, dispatch_uid=f"addresses-{model}")

        # SQLite plans from statistics made by ANALYZE (clubsite.sqlite): made anew by
        # every migrate, so an upgraded database plans well from its first request.
        # (Once: sent for each app with models, which this one has not; scoring's.)
        scoring = self.apps.get_app_config("scoring")
        post_migrate.connect(analyze, sender=scoring, dispatch_uid="clubsite-analyze")


def analyze(using="default", **kwargs) -> None:
    from django.db import connections

    from clubsite.sqlite.base import ANALYSIS_LIMIT

    connection = connections[using]
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute(f"PRAGMA analysis_limit={ANALYSIS_LIMIT}")
            cursor.execute("ANALYZE")

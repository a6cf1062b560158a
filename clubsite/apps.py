from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps


class ClubsiteConfig(AppConfig):
    name = "clubsite"
    verbose_name = "Club site"

    def ready(self):
        from clubsite import checks

        # The compiled catalogs: an error of check --deploy, a warning at start.
        checks.register()

        from django.db.models.signals import post_migrate

        # SQLite plans from statistics made by ANALYZE (clubsite.sqlite): made anew by
        # every migrate, so an upgraded database plans well from its first request.
        # (Once: sent for each app with models, which this one has not; scoring's.)
        scoring = self.apps.get_app_config("scoring")
        post_migrate.connect(analyze, sender=scoring, dispatch_uid="clubsite-analyze")

        from django.db.backends.signals import connection_created

        from clubsite.sqlite.base import optimize_at_open

        connection_created.connect(optimize_at_open, dispatch_uid="clubsite-optimize")


def analyze(using="default", **kwargs) -> None:
    from django.db import connections

    from clubsite.sqlite.base import ANALYSIS_LIMIT

    connection = connections[using]
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute(f"PRAGMA analysis_limit={ANALYSIS_LIMIT}")
            cursor.execute("ANALYZE")


class AdminConfig(admin_apps.AdminConfig):
    """``django.contrib.admin`` with the site's own admin site (superusers only)."""

    default = False  # "clubsite" alone installs ClubsiteConfig
    default_site = "clubsite.admin.SiteAdmin"

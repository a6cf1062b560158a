from django.apps import AppConfig


class MembersConfig(AppConfig):
    name = "members"
    verbose_name = "People and club days"

    def ready(self):
        from django.contrib.auth.signals import user_logged_in

        from members.clubs.languages import remember_at_login

        # A member's own language is read with the login, not on every page.
        user_logged_in.connect(remember_at_login, dispatch_uid="clubsite-language-at-login")

        from django.db.models.signals import post_delete, post_save

        from members.clubs.addresses import clubs_changed
        from members.models import Club, ClubSlugRedirect

        # The club of an address is kept in the shared cache: a change retires it.
        for model in (Club, ClubSlugRedirect):
            for signal in (post_save, post_delete):
                signal.connect(clubs_changed, sender=model, dispatch_uid=f"addresses-{model}")

        from django.db.models.signals import post_migrate

        # A migration may change clubs without their signals (data migrations): the
        # addresses kept in the shared cache are retired after every migrate.
        post_migrate.connect(_addresses_changed, sender=self, dispatch_uid="addresses-migrate")


def _addresses_changed(**kwargs) -> None:
    from contextlib import suppress

    from members.clubs.addresses import clubs_changed

    # No cache table yet on a new database (createcachetable runs after migrate).
    with suppress(Exception):
        clubs_changed()

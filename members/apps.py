from django.apps import AppConfig


class MembersConfig(AppConfig):
    name = "members"
    verbose_name = "People and club days"

    def ready(self):
        from django.contrib.auth.signals import user_logged_in

        from members.clubs.languages import remember_at_login

        # A member's own language is read with the login, not on every page.
        user_logged_in.connect(remember_at_login, dispatch_uid="clubsite-language-at-login")

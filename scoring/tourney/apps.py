from django.apps import AppConfig


class TourneyConfig(AppConfig):
    name = "scoring.tourney"
    label = "tourney"
    verbose_name = "Events"
    default_auto_field = "django.db.models.BigAutoField"

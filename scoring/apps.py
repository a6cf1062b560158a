from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Scoring"

    def ready(self):
        from scoring.results import receivers  # noqa: F401  (connects the receivers)

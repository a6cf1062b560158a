from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Scoring"

    def ready(self):
        from scoring.play import receivers as play_receivers  # noqa: F401  (connects them)
        from scoring.results import receivers  # noqa: F401  (connects the receivers)

from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Scoring"

    def ready(self):
        from scoring import signals  # noqa: F401  (connects the receivers)

from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Scoring"

    def ready(self):
        from django.utils import translation
        from django.utils.formats import number_format

        from scoring.engine import _text

        # The engine writes its refusals in the language active where it is called,
        # with the thousands grouped as that language groups them.
        _text.install(
            translations=translation,
            number=lambda n: number_format(n, force_grouping=True),
        )
        from scoring.play import receivers as play_receivers  # noqa: F401  (connects them)
        from scoring.results import receivers  # noqa: F401  (connects the receivers)

from django.apps import AppConfig


class TourneyConfig(AppConfig):
    name = "scoring.tourney"
    label = "tourney"
    verbose_name = "Events"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from scoring.play import hooks
        from scoring.tourney.called import hand_check, next_game_check

        # What time called does to a table's hands (the play services never import
        # this app: they run the checks it adds).
        hooks.add_hand_check(hand_check)
        hooks.add_next_game_check(next_game_check)

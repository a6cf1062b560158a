from django.apps import AppConfig


class TourneyConfig(AppConfig):
    name = "scoring.tourney"
    label = "tourney"
    verbose_name = "Events"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from scoring.signals import saving_hand, starting_next_game
        from scoring.tourney.called import hand_check, next_game_check

        # What time called does to a table's hands (the play services never import
        # this app: they send the signals it receives).
        saving_hand.connect(hand_check, dispatch_uid="tourney.hand_check")
        starting_next_game.connect(next_game_check, dispatch_uid="tourney.next_game_check")

"""Recompute every derived score row (hand results, running totals, minimums, game
state) from the hands' raw inputs, then the stored season totals of every person and
partnership from the games: `manage.py rebuild_totals [--game ID]` (with ``--game``,
that game and its players' season totals only)."""

from django.core.management.base import CommandError

from members.clubs.commands import ClubCommand
from scoring.models import Game
from scoring.play.services import totals
from scoring.play.services.errors import ScoringError
from scoring.play.services.hands import rebuild_game


class Command(ClubCommand):
    help = (
        "Recompute team totals, minimums and game results from the stored hand inputs, "
        "then the stored season totals of people and partnerships."
    )

    def add_arguments(self, parser):
        parser.add_argument("--game", type=int, help="Only this game (its id).")

    def handle(self, *args, game=None, **options):
        games = Game.objects.order_by("pk")
        if game is not None:
            games = games.filter(pk=game)
            if not games.exists():
                raise CommandError(f"There is no game with id {game}.")
        done = failed = 0
        for item in games.iterator():
            try:
                rebuild_game(item)
            except ScoringError as exc:
                failed += 1
                self.stderr.write(f"Game {item.pk} ({item}): {exc.message}")
            else:
                done += 1
        self.stdout.write(f"Rebuilt {done} game{'s' if done != 1 else ''}.")
        if game is None:
            seasons = totals.rebuild_all()
            self.stdout.write(
                f"Rebuilt the stored totals of {seasons} season{'s' if seasons != 1 else ''}."
            )
        else:
            totals.game_changed(games.get())
            self.stdout.write("Rebuilt the stored season totals of its players.")
        if failed:
            raise CommandError(f"{failed} game{'s' if failed != 1 else ''} could not be rebuilt.")

"""Recompute every derived score row (hand results, running totals, minimums, game
state) from the hands' raw inputs, then the stored season totals of every person and
partnership from the games: `manage.py rebuild_totals [--game ID]` (with ``--game``,
that game and its players' season totals only). It runs here and now; with
``--queue`` the club's rebuild is queued for the worker instead, shown to the club's
officers on their "Background work" page (:mod:`scoring.results.rebuild`)."""

from django.core.management.base import CommandError

from members.clubs.commands import ClubCommand
from scoring.models import Game
from scoring.play.services import totals
from scoring.results.rebuild import ask_for_rebuild, rebuild_games


class Command(ClubCommand):
    help = (
        "Recompute team totals, minimums and game results from the stored hand inputs, "
        "then the stored season totals of people and partnerships."
    )

    def add_arguments(self, parser):
        parser.add_argument("--game", type=int, help="Only this game (its id).")
        parser.add_argument(
            "--queue",
            action="store_true",
            help="Queue the club's rebuild for the background worker instead of running it here.",
        )

    def handle(self, *args, game=None, queue=False, **options):
        if queue:
            if game is not None:
                raise CommandError("--queue rebuilds the whole club; leave out --game.")
            job, new = ask_for_rebuild(part="totals")
            said = "Queued" if new else "Already waiting or running"
            self.stdout.write(f"{said}: the club's rebuild of the totals (job {job.pk}).")
            return
        games = Game.objects.all()
        if game is not None:
            games = games.filter(pk=game)
            if not games.exists():
                raise CommandError(f"There is no game with id {game}.")
        done, failed = rebuild_games(games)
        for item, reason in failed:
            self.stderr.write(f"Game {item.pk} ({item}): {reason}")
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
            n = len(failed)
            raise CommandError(f"{n} game{'s' if n != 1 else ''} could not be rebuilt.")

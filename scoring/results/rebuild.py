"""A club's derived scores rebuilt from the stored hands: every game's totals,
minimums and state, the stored season totals, and the ratings replayed from the
first finished game. ``manage.py rebuild_totals`` and ``rebuild_ratings`` run it
inline (or queue it with ``--queue``); an officer asks for it on the "Background work"
page (:func:`ask_for_rebuild`) and the worker runs :func:`rebuild_club`. Each part
writes the same rows whatever they held before, so a job run again after its worker
was killed does no harm (:mod:`members.jobs.runner`)."""

from __future__ import annotations

import datetime
import secrets

from django.utils.translation import gettext as _
from django_tasks import task

from members.jobs import runner
from members.jobs.models import ClubJob
from scoring.models import Game
from scoring.play.services import totals
from scoring.play.services.errors import ScoringError
from scoring.play.services.hands import rebuild_game
from scoring.results import ratings

# What a rebuild covers: "all" (the page), or one command's part.
PARTS = ("all", "totals", "ratings")


def rebuild_games(games) -> tuple[int, list[tuple[Game, str]]]:
    """Rebuild each game of ``games`` from its hands: how many were, and the ones that
    could not be (with the reason)."""
    done, failed = 0, []
    for game in games.order_by("pk").iterator():
        try:
            rebuild_game(game)
        except ScoringError as exc:
            failed.append((game, exc.message))
        else:
            done += 1
    return done, failed


def ask_for_rebuild(*, key: str | None = None, by=None, part: str = "all", start=None):
    """The active club's rebuild: one already waiting or running, else a new one.
    Returns the job and whether this call asked for it."""
    payload = {"part": part, "start": start.isoformat() if start else None}
    key = key or secrets.token_urlsafe(24)
    return runner.ask(
        ClubJob.Kind.REBUILD, key=key, by=by, payload=payload, single={"payload__part": part}
    )


@task()
def rebuild_club(job_id: int) -> str:
    """The worker's rebuild of one club (the job's ``part``)."""
    return runner.run(job_id, _rebuild, atomic=False)


def _rebuild(job: ClubJob) -> dict:
    part = job.payload.get("part", "all")
    start = job.payload.get("start")
    result = {"part": part}
    if part in ("all", "totals"):
        done, failed = rebuild_games(Game.objects.all())
        result.update(games=done, seasons=totals.rebuild_all(), failed=len(failed))
    if part in ("all", "ratings"):
        day = datetime.date.fromisoformat(start) if start else None
        result["rated"] = ratings.replay_from(day)
    if result.get("failed"):
        raise runner.JobRefused(
            _(
                "%(failed)s game(s) could not be rebuilt: a stored hand no longer scores "
                "under its game's rules. The site's operator can see which with "
                "manage.py rebuild_totals."
            )
            % {"failed": result["failed"]}
        )
    return result

"""The reads every table page, preview and save makes, each of a fixed shape and so
compiled by the ORM once (:class:`scoring.play.fixed.FixedRead`): the same rows and
objects as the querysets written here, without building those again per request."""

from __future__ import annotations

from django.db.models import F
from django.http import Http404

from members.models import Table
from scoring.models import Game, Hand, Submission, TeamHand, TeamPlayer
from scoring.play.fixed import FixedRead

#: A table with its round and day (every access check reads the day).
table_by_pk = FixedRead(lambda pk: Table.objects.select_related("round__day").filter(pk=pk))

#: A game with its table, round and day (not the winner: pages name it from the teams).
game_by_pk = FixedRead(lambda pk: Game.objects.select_related("table__round__day").filter(pk=pk))

#: A table's latest game, as a list of at most one.
latest_game = FixedRead(
    lambda table_id: Game.objects.filter(table_id=table_id).order_by("-number")[:1]
)

#: A game's latest 20 keys, newest first (the model's ordering would join the game).
recent_keys = FixedRead(
    lambda game_id: (
        Submission.objects.filter(game_id=game_id)
        .order_by("-pk")
        .values_list("key", flat=True)[:20]
    )
)

#: A game's players with their teams and people, in team and seat order.
players = FixedRead(
    lambda game_id: (
        TeamPlayer.objects.filter(game_id=game_id)
        .select_related("team", "person")
        .order_by("team__index", "seat", "pk")
    )
)

#: A game's players, locked with their teams and game (inside the saving transaction),
#: the game joined, and whether its hands wait for the other team's OK (the day's and
#: the rule set's setting): services.base.lock_for_hand.
players_locked = FixedRead(
    lambda game_id: (
        TeamPlayer.objects.select_for_update(of=("team", "team__game"))
        .select_related("team__game")
        .filter(team__game_id=game_id)
        .annotate(
            confirm_day=F("team__game__day__rules__confirm_hands"),
            confirm_rules=F("team__game__rule_set__confirm_hands"),
        )
        .order_by("team__index", "seat", "pk")
    )
)

#: A game's hands in order, each with its confirmation (and who entered it, or not).
hands = FixedRead(
    lambda game_id: (
        Hand.objects.filter(game_id=game_id).order_by("number").select_related("confirmation")
    )
)
hands_entered_by = FixedRead(
    lambda game_id: (
        Hand.objects.filter(game_id=game_id)
        .order_by("number")
        .select_related("confirmation", "entered_by")
    )
)

#: A game's team rows of every hand, in no order.
team_hands = FixedRead(lambda game_id: TeamHand.objects.filter(game_id=game_id).order_by())


def one_or_404(read, pk, model):
    """The one row ``read`` finds for ``pk``, or get_object_or_404's 404."""
    try:
        pk = int(pk)
    except (TypeError, ValueError):
        pk = None
    # A number no 64-bit key holds finds nothing (the ORM's lookup says so, too).
    found = read(pk) if pk is not None and -(2**63) <= pk < 2**63 else []
    if not found:
        raise Http404(f"No {model._meta.object_name} matches the given query.")
    return found[0]

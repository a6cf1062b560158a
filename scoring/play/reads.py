"""The reads every table page makes: plain querysets, evaluated into lists, named once
so the views and the access checks read a table, a game and its rows the same way."""

from __future__ import annotations

from django.http import Http404

from members.models import Table
from scoring.models import Game, Hand, TeamHand, TeamPlayer


def table_by_pk(pk) -> list[Table]:
    """The table with its round and day (every access check reads the day)."""
    # One row: no ordering to join for (the model's orders by round, day and number).
    return list(Table.objects.select_related("round__day").filter(pk=pk).order_by())


def game_by_pk(pk) -> list[Game]:
    """The game with its table, round and day (not the winner: pages name it from the
    teams)."""
    # One row: no ordering to work out (the model's joins the table for its number).
    return list(Game.objects.select_related("table__round__day").filter(pk=pk).order_by())


def latest_game(table_id) -> list[Game]:
    """A table's latest game, as a list of at most one."""
    return list(Game.objects.filter(table_id=table_id).order_by("-number")[:1])


def players(game_id) -> list[TeamPlayer]:
    """A game's players with their teams and people, in team and seat order."""
    return list(
        TeamPlayer.objects.filter(game_id=game_id)
        .select_related("team", "person")
        .order_by("team__index", "seat", "pk")
    )


def hands(game_id) -> list[Hand]:
    """A game's hands in order, each with its confirmation."""
    return list(
        Hand.objects.filter(game_id=game_id).order_by("number").select_related("confirmation")
    )


def hands_entered_by(game_id) -> list[Hand]:
    """A game's hands in order, each with its confirmation and who entered it."""
    return list(
        Hand.objects.filter(game_id=game_id)
        .order_by("number")
        .select_related("confirmation", "entered_by")
    )


def team_hands(game_id) -> list[TeamHand]:
    """A game's team rows of every hand, in no order."""
    return list(TeamHand.objects.filter(game_id=game_id).order_by())


def one_or_404(read, pk, model):
    """The one row ``read`` finds for ``pk``, or the 404 get_object_or_404 gives (also
    for a key that is not a number; one no 64-bit key holds finds nothing, as the ORM's
    lookup says)."""
    try:
        found = read(int(pk))
    except (TypeError, ValueError):
        found = []
    if not found:
        raise Http404(f"No {model._meta.object_name} matches the given query.")
    return found[0]

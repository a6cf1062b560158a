"""An event's rounds: start one (its games begin through the play services and its
clock runs), end one (games still in play end as they stand, and the next round is
seated by the movement so every phone can say where its players go).

Round 1 is the day's current seating, as seated when it starts: latecomers are
welcome until then (the seating page seats them as on any club day).
"""

from __future__ import annotations

import secrets
from contextlib import suppress

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from members.models import Person, Table
from members.services.errors import SeatingRefused
from members.services.seating import current_round, seat_given, seat_map
from members.services.seating import start_round as start_members_round
from scoring.models import Game
from scoring.play.services.endings import end_game_as_it_stands
from scoring.play.services.errors import GameClosed, GameInPlay, GameSetupError
from scoring.play.services.games import start_game
from scoring.tourney import seating
from scoring.tourney.models import Event, EventRound
from scoring.tourney.services.errors import EventRefused
from scoring.tourney.services.once import action
from scoring.tourney.standings import event_ranking


def latest_round(event: Event) -> EventRound | None:
    return event.event_rounds.order_by("-number").first()


def _check_number(current: EventRound | None, number: int) -> None:
    """The page acted on round ``number``: refuse when the event has moved on."""
    shown = current.number if current else 1
    if number != shown:
        raise EventRefused(
            _("This page showed round %(shown)s, but the event is at round %(now)s: reload it.")
            % {"shown": number, "now": shown}
        )


def start_next_round(event: Event, *, number: int, key, by=None, now) -> EventRound:
    """Start round ``number`` (the one the officer's page shows): round 1 from the
    tables as seated now, a later one as the movement seated it when the round before
    ended. Its games start at every table and its clock runs from ``now``."""
    with action(event, "start", number, key=key, by=by, now=now) as locked:
        current = locked.event_rounds.select_for_update().order_by("-number").first()
        _check_number(current, number)
        if locked.finished_at is not None:
            raise EventRefused(_("Every round of this event has been played."))
        if current is None:
            current = _first_round(locked, now)
        elif current.started_at is not None:
            raise EventRefused(
                _("Round %(number)s has already started.") % {"number": current.number}
            )
        _start_games(locked, current, now)
        current.started_at = now
        current.save(update_fields=["started_at"])
        return current


def _first_round(event: Event, now) -> EventRound:
    day = event.day
    if not day.is_open:
        raise EventRefused(_("%(day)s is closed; reopen it to play the event.") % {"day": day})
    members_round = current_round(day)
    if members_round is None or not members_round.seats.exists():
        raise EventRefused(
            _("Nobody is seated yet: seat everyone at tables of four on the seating page first.")
        )
    tables = [[s.person_id for s in seats] for _table, seats in seat_map(members_round)]
    _check_tables(event, tables)
    if not members_round.started:
        try:
            start_members_round(members_round)
        except SeatingRefused as exc:
            raise EventRefused(exc.message) from exc
    event.seed = event.seed or secrets.randbits(48)
    event.entrants = seating.entrants_from_tables(event.movement, tables, event.rounds, event.seed)
    event.save(update_fields=["seed", "entrants"])
    rows = seating.seating(event.movement, event.entrants, 1, event.rounds, event.seed)
    if event.movement == seating.MITCHELL or event.movement == seating.SWISS:
        # Round 1 is the seating as it is (the movement numbered the entrants from it).
        for row, people in zip(rows, tables, strict=True):
            row["sides"] = [[people[0], people[2]], [people[1], people[3]]]
    return EventRound.objects.create(event=event, number=1, round=members_round, seating=rows)


def _check_tables(event: Event, tables: list[list[int]]) -> None:
    for number, people in enumerate(tables, start=1):
        if len(people) != 4:
            raise EventRefused(
                ngettext(
                    "Table %(table)s has %(count)s player: an event needs four at every "
                    "table. Move people on the seating page, then start again.",
                    "Table %(table)s has %(count)s players: an event needs four at every "
                    "table. Move people on the seating page, then start again.",
                    len(people),
                )
                % {"table": number, "count": len(people)}
            )
    if event.movement == seating.MITCHELL and event.rounds > len(tables):
        raise EventRefused(
            ngettext(
                "A Mitchell at %(tables)s table has at most %(tables)s rounds (one against "
                "each North–South pair); this event has %(rounds)s. Make it %(tables)s "
                "rounds or fewer, or choose the Swiss movement.",
                "A Mitchell at %(tables)s tables has at most %(tables)s rounds (one against "
                "each North–South pair); this event has %(rounds)s. Make it %(tables)s "
                "rounds or fewer, or choose the Swiss movement.",
                len(tables),
            )
            % {"tables": len(tables), "rounds": event.rounds}
        )
    if event.movement == seating.SWISS and len(tables) < 2 and event.rounds > 1:
        raise EventRefused(_("A Swiss event needs at least two tables."))


def _start_games(event: Event, current: EventRound, now) -> None:
    tables = {t.number: t for t in Table.objects.filter(round_id=current.round_id)}
    ids = [p for row in current.seating for side in row["sides"] for p in side]
    people = Person.objects.in_bulk(ids)
    for row in current.seating:
        teams = [[people[p] for p in side] for side in row["sides"]]
        try:
            start_game(tables[row["table"]], teams, rule_set=event.rule_set, now=now)
        except GameInPlay:
            continue  # the table's phone started it already: that game is the round's
        except GameSetupError as exc:
            raise EventRefused(
                _("Table %(table)s: %(reason)s") % {"table": row["table"], "reason": exc.message}
            ) from exc


def end_current_round(event: Event, *, number: int, key, by=None, now) -> EventRound:
    """End round ``number`` now: each game still in play ends as it stands (the side
    ahead wins; a level game counts as a draw), and the next round is seated."""
    with action(event, "end", number, key=key, by=by, now=now) as locked:
        current = locked.event_rounds.select_for_update().order_by("-number").first()
        _check_number(current, number)
        if current is None or current.started_at is None:
            raise EventRefused(_("Round %(number)s has not started yet.") % {"number": number})
        if current.ended_at is not None:
            raise EventRefused(_("Round %(number)s has already ended.") % {"number": number})
        if current.paused_at is not None:
            current.paused_seconds += max(0, int((now - current.paused_at).total_seconds()))
            current.paused_at = None
        current.ended_at = now
        current.save(update_fields=["ended_at", "paused_at", "paused_seconds"])
        for game in _games_in_play(current):
            with suppress(GameClosed):  # level: it counts as a draw at its totals
                end_game_as_it_stands(game, now=now)
        if current.number >= locked.rounds:
            locked.finished_at = now
        else:
            _seat_next(locked, current)
        return current


def _games_in_play(current: EventRound):
    return list(Game.objects.filter(table__round_id=current.round_id, status="playing"))


def _seat_next(event: Event, current: EventRound) -> EventRound:
    previous = list(event.event_rounds.order_by("number"))
    number = current.number + 1
    extra = {}
    if event.movement == seating.SWISS:
        rows = event_ranking(event)
        ranked = [r.tally.entrant for r in rows]
        rest = sorted(e["number"] for e in event.entrants if e["number"] not in ranked)
        extra = {
            "played": seating.meetings([r.seating for r in previous]),
            "wins": {r.tally.entrant: r.tally.wins for r in rows},
            "standing": ranked + rest,
        }
    rows = seating.seating(
        event.movement,
        event.entrants,
        number,
        event.rounds,
        event.seed,
        previous=current.seating,
        **extra,
    )
    try:
        members_round = seat_given(event.day, [seating.seat_order(row) for row in rows])
    except SeatingRefused as exc:
        raise EventRefused(exc.message) from exc
    return EventRound.objects.create(event=event, number=number, round=members_round, seating=rows)

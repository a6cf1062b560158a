"""What the table phones and the room board need to know of a day's event, kept in
the shared cache. Every write of the event services writes the copy again once it has
committed (:func:`refresh`, which never puts an older version of the event over a newer
one); the officer's page, the room board and the day results write it when it is
missing (:func:`day_state`).

A table page looks only on a day that has an event (``ClubDay.has_event``, loaded
with the table: no query at all on an ordinary club day), and then only in the cache
(:func:`peek`): one cache read, and no copy means no event, so a table page never
reads the event tables, not even on a miss. (A copy dropped by the cache comes back
with the event's next write, the board's next redraw, which every saved hand at the
day's tables causes, or the officer's page.)

The copy holds stored moments, not the time left: the countdown is worked out from
them with the time of each page (:mod:`.timing`).
"""

from __future__ import annotations

from django.core.cache import cache

from members.clubs.scope import current_club_id
from members.models import Person
from scoring.tourney.models import Event
from scoring.tourney.timing import RoundClock

#: An event day's copy lasts the day; every write of the event writes it again.
SECONDS = 24 * 3600
NONE = {"event": None}


def _key(day_id: int) -> str:
    return f"tourney:day:{current_club_id()}:{day_id}"


def refresh(day_id: int) -> dict:
    """Write the day's copy again from the database (after an event's write), unless
    the cache already holds a copy of the same event at the same or a later version.
    Two actions close together (a pause, then a minute more from another device) may
    finish in either order: the later action's copy stays, never the earlier one's."""
    state = _build(day_id)
    key = _key(day_id)
    if not _not_newer(state, cache.get(key)):
        cache.set(key, state, SECONDS)
    return state


def forget(day_id: int) -> None:
    """Drop the day's copy (its event was deleted; the next read writes it again)."""
    cache.delete(_key(day_id))


def _not_newer(state: dict, cached: dict | None) -> bool:
    """Whether ``cached`` is a copy of the same event as ``state`` at the same or a
    later version (a copy of no event, or of another event, is always replaced)."""
    if not cached or state["event"] is None or cached.get("event") != state["event"]:
        return False
    return cached["version"] >= state["version"]


def peek(day_id: int) -> dict | None:
    """The day's copy if the cache has one (a table page never reads the database)."""
    return cache.get(_key(day_id))


def day_state(day_id: int) -> dict:
    """The day's event as plain data (``{"event": None}`` without one)."""
    key = _key(day_id)
    found = cache.get(key)
    if found is None:
        found = refresh(day_id)
    return found


def clock_of(row: dict, minutes: int) -> RoundClock:
    return RoundClock(
        minutes=minutes,
        started_at=row["started_at"],
        paused_at=row["paused_at"],
        paused_seconds=row["paused_seconds"],
        shift_seconds=row["shift_seconds"],
        ended_at=row["ended_at"],
    )


def _build(day_id: int) -> dict:
    event = Event.objects.filter(day_id=day_id).first()
    if event is None:
        return NONE
    rounds = list(event.event_rounds.order_by("number").prefetch_related("arrivals"))
    ids = {p for r in rounds for row in r.seating for side in row["sides"] for p in side}
    names = {p.pk: p.full_name for p in Person.objects.filter(pk__in=ids)}
    out_rounds = []
    for r in rounds:
        out_rounds.append(
            {
                "number": r.number,
                "round_id": r.round_id,
                "started_at": r.started_at,
                "paused_at": r.paused_at,
                "paused_seconds": r.paused_seconds,
                "shift_seconds": r.shift_seconds,
                "ended_at": r.ended_at,
                "arrived": sorted((a.table, a.side) for a in r.arrivals.all()),
                "tables": [
                    {
                        "table": row["table"],
                        "sides": [[names.get(p, "?") for p in side] for side in row["sides"]],
                        "ids": row["sides"],
                        "came_from": row.get("came_from", [None, None]),
                    }
                    for row in r.seating
                ],
            }
        )
    return {
        "event": event.pk,
        "name": str(event),
        "rounds": event.rounds,
        "minutes": event.round_minutes,
        "move_minutes": event.move_minutes,
        "warning": event.warning_minutes,
        "time_called": event.time_called,
        "movement": event.movement,
        "finished": event.finished_at is not None,
        "version": event.version,
        "event_rounds": out_rounds,
    }


def round_for(state: dict, round_id: int) -> dict | None:
    """The event round played at members round ``round_id`` (None: not the event's)."""
    return next((r for r in state.get("event_rounds", ()) if r["round_id"] == round_id), None)


def current_round(state: dict) -> dict | None:
    """The latest round of the event (seated, playing or ended)."""
    rounds = state.get("event_rounds") or []
    return rounds[-1] if rounds else None


def next_tables(state: dict, number: int) -> dict[int, int]:
    """Each person's table in round ``number`` ({person id: table})."""
    row = next((r for r in state.get("event_rounds", ()) if r["number"] == number), None)
    if row is None:
        return {}
    return {p: t["table"] for t in row["tables"] for side in t["ids"] for p in side}

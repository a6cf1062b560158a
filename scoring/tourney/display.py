"""What the pages show of an event, from the cached day state (:mod:`.reads`) and the
time of the page: the clock, the seating with names and arrivals, where a table's
players go next. Shared by the officer's page, the room board and the table phones."""

from __future__ import annotations

from django.utils import timezone

from clubsite.clock import clock
from scoring.tourney import reads, timing
from scoring.tourney.words import time_called_words


def clock_context(state: dict, row: dict | None, now) -> dict | None:
    """The clock of the event round ``row`` (a dict of the day state) at ``now``."""
    if row is None:
        return None
    round_clock = reads.clock_of(row, state["minutes"])
    deadline = round_clock.deadline(now)
    phase = round_clock.state(now, state["warning"])
    return {
        "number": row["number"],
        "rounds": state["rounds"],
        "state": phase,
        "remaining": timing.clock_words(round_clock.remaining(now)),
        "remaining_seconds": round_clock.remaining(now),
        "deadline": deadline,
        # Only a running clock counts down in the browser.
        "deadline_epoch": (
            int(deadline.timestamp())
            if deadline and phase in (timing.PLAYING, timing.WARNING, timing.TIME_CALLED)
            else None
        ),
        "deadline_words": clock(deadline) if deadline else "",
        "warning_seconds": state["warning"] * 60,
        "time_called_words": time_called_words(state["time_called"]),
        "time_called": phase == timing.TIME_CALLED,
    }


def seating_rows(row: dict | None) -> list[dict]:
    """The round's tables with names, where East–West came from, and who is here."""
    if row is None:
        return []
    arrived = {tuple(a) for a in row["arrived"]}
    return [
        {
            **t,
            "arrived_ns": (t["table"], 0) in arrived,
            "arrived_ew": (t["table"], 1) in arrived,
        }
        for t in row["tables"]
    ]


def moves_from(state: dict, row: dict, table_number: int) -> list[dict]:
    """Where the players of table ``table_number`` in round ``row`` go next:
    ``[{"name", "table", "stays"}]`` (empty until the next round is seated)."""
    after = reads.next_tables(state, row["number"] + 1)
    if not after:
        return []
    here = next((t for t in row["tables"] if t["table"] == table_number), None)
    if here is None:
        return []
    out = []
    for ids, names in zip(here["ids"], here["sides"], strict=True):
        for pid, name in zip(ids, names, strict=True):
            goes = after.get(pid)
            out.append({"name": name, "table": goes, "stays": goes == table_number})
    return out


def board_event(day) -> dict | None:
    """The room board's event panel (None on an ordinary club day): the round's clock,
    and the next seating while the tables move."""
    state = reads.day_state(day.pk)
    row = reads.current_round(state)
    if state["event"] is None or row is None:
        return None
    clock = clock_context(state, row, timezone.now())
    return {
        "name": state["name"],
        "clock": clock,
        "seating": seating_rows(row) if clock["state"] == timing.WAITING else [],
        "finished": state["finished"],
        "event_id": state["event"],
    }

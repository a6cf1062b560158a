"""The event's small parts on other apps' pages: the panel on a table phone and the
ranking's link beside the day results. Both look only on a day that has an event
(``ClubDay.has_event``, already loaded with the table or the day): an ordinary club
day's pages make no query and no cache read for events. A table phone then reads the
cache only, never the database (:func:`scoring.tourney.reads.peek`)."""

from __future__ import annotations

from django import template
from django.utils import timezone

from scoring.tourney import reads, timing
from scoring.tourney.display import clock_context, moves_from
from scoring.tourney.words import section_words as _section_words

register = template.Library()


@register.inclusion_tag("tourney/_table_event.html", takes_context=True)
def table_event(context, table):
    """What a table phone shows of the event whose round this table is in (nothing
    for a table of an ordinary club day). It marks an event's table (``in_event``), so
    the page after it offers no "Next game": the table's game of the round is the
    event's, and once it is over the players wait for the next seating."""
    out = {"shown": False}
    if not table.round.day.has_event:
        return out
    state = reads.peek(table.round.day_id)
    if not state or state["event"] is None:
        return out
    row = reads.round_for(state, table.round_id)
    if row is None:
        return out
    clock = clock_context(state, row, timezone.now())
    # The table page leaves out "Next game": an event table plays one game a round.
    # (Marked on the table itself: the include's own context ends with it.)
    table.in_event = True
    game = context.get("game")
    here = next((t for t in row["tables"] if t["table"] == table.number), None)
    arrived = {tuple(a) for a in row["arrived"]}
    out.update(
        shown=True,
        table=table,
        clock=clock,
        csrf_token=context.get("csrf_token"),
        can_edit=getattr(context.get("access"), "can_edit", False),
        waiting=clock["state"] == timing.WAITING,
        ended=clock["state"] == timing.ENDED,
        here=here,
        arrived_ns=(table.number, 0) in arrived,
        arrived_ew=(table.number, 1) in arrived,
        moves=moves_from(state, row, table.number) if clock["state"] == timing.ENDED else [],
        last=row["number"] >= state["rounds"],
        game_over=bool(game is not None and game.is_finished),
    )
    return out


@register.filter
def section_words(name) -> str:
    """``{{ section|section_words }}``: "North–South", "Upper bracket" … in the
    reader's language (:func:`scoring.tourney.words.section_words`)."""
    return _section_words(name or "")


@register.simple_tag
def in_event_round(table) -> bool:
    """Whether ``table`` is a table of an event's round (its game pages then offer no
    "Next game": one game a round, the next seating comes from the director). Nothing
    read for a table of an ordinary club day; else the day's copy (cached)."""
    if not table.round.day.has_event:
        return False
    return reads.round_for(reads.day_state(table.round.day_id), table.round_id) is not None


@register.simple_tag
def day_event(day):
    """The day's event (its id), or None: for the ranking's link (one cached read on a
    day with an event, none on another)."""
    if not day.has_event:
        return None
    return reads.day_state(day.pk)["event"]

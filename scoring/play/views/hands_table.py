"""The rows of the hands table (``_hands.html``), drawn in Python: the same HTML the
template's loop wrote, byte for byte, in a fraction of the time (a template resolves
each of a row's dozen variables through its lookups; a table page draws every hand
of the game on each save and reload). Its test compares with that loop."""

from __future__ import annotations

from django.utils.html import conditional_escape as esc
from django.utils.safestring import SafeString, mark_safe


def hand_state(c) -> str:
    """A hand's confirmation state in a few words (``c``: its HandConfirmation, or
    nothing): the hands table's and the correction page's (``{% hand_state %}``)."""
    if not c:
        return ""
    if c.status == "confirmed":
        # A confirmer whose record was deleted (SET_NULL) leaves "OK by ", as the template did.
        words = f"OK by {esc(c.person.first_name)}" if c.person else "OK by "
    elif c.status == "settled":
        words = f"Settled by {esc(c.who)}"
    elif c.status == "disputed":
        words = f"Disputed by {esc(c.person.first_name)}" if c.person else "Disputed"
    else:
        words = "Waiting for OK"
    return f'<span class="hand-state state-{esc(c.status)}">{words}</span>'


def _row(row, can_edit: bool) -> str:
    hand = row["hand"]
    number = esc(hand.number)
    dealer = hand.dealer
    dealt = f'<span class="dealer">{esc(dealer.first_name)} dealt</span>' if dealer else ""
    cells = "".join(
        f'\n        <td><span class="total">{esc(total)}</span>'
        f'<span class="score">{esc(score)}</span></td>\n        '
        for total, score in row["cells"]
    )
    edit = (
        f'<td><a href="{esc(row["edit_url"])}">Correct'
        f'<span class="sr-only"> hand {number}</span></a></td>'
        if can_edit
        else ""
    )
    state = hand_state(getattr(hand, "confirmation", None))
    return (
        f'\n      <tr id="hand-{number}">\n        <th scope="row">{number}{dealt}\n'
        f"{state}\n</th>\n        {cells}\n        {edit}\n      </tr>\n      "
    )


def draw_hand_rows(rows, can_edit: bool) -> SafeString:
    """The ``<tr>`` of each of ``rows`` (display._hand_rows), as the template drew them."""
    return mark_safe("".join(_row(row, can_edit) for row in rows))

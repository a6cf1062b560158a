"""The scoreboard (each team's players, total and what it needs to meld), drawn in
Python: the HTML the template _scoreboard.html drew, byte for byte, without a template
lookup per value (the table page draws it on every save and reload). Its test
compares the two."""

from __future__ import annotations

from django.utils.html import conditional_escape as esc
from django.utils.safestring import SafeString, mark_safe


def _failed_buttons(k: int, b: dict, rules) -> str:
    increase = esc(getattr(rules, "failed_meld_increase", ""))
    take_back = (
        f'<button type="submit" name="action" value="unfailed-{k}" class="link-button" '
        "formnovalidate>Take back a failed meld</button>"
        if b["failed"]
        else ""
    )
    return (
        f'\n        <button type="submit" name="action" value="failed-{k}" formnovalidate '
        f'class="failed">+{increase}, failed initial meld</button>\n        {take_back}\n      '
    )


def _card(k: int, b: dict, finished: bool, editable: bool, rules) -> str:
    label, total = esc(b["label"]), b["total"]
    minimum = (
        '\n      <p class="minimum"><span class="caption">Needs to meld</span>'
        f"<strong>{esc(b['minimum'])}</strong></p>\n      "
        if not finished
        else ""
    )
    won = '<p class="won">Winner</p>' if b["is_winner"] else ""
    tail = ""
    if not finished:
        failed = b["failed"]
        raised = (
            f'<p class="raised">{esc(failed)} failed meld{"" if failed == 1 else "s"}: '
            f"{esc(b['base_minimum'])} → {esc(b['minimum'])}</p>"
            if failed
            else ""
        )
        buttons = _failed_buttons(k, b, rules) if editable else ""
        tail = f"\n      {raised}\n      {buttons}\n    "
    return (
        f'\n  <div class="team-card{" winner" if b["is_winner"] else ""}">\n'
        f'    <h2>{label} <span class="names">{esc(b["names"])}</span></h2>\n'
        f'    <div class="figures">\n      <p class="total{" negative" if total < 0 else ""}">'
        f'<span class="caption">Total</span><span aria-label="{label} total {esc(total)}">'
        f"{total:,}</span></p>\n      {minimum}\n    </div>\n"
        f"    {won}\n    {tail}\n  </div>\n  "
    )


def draw_scoreboard(board: list[dict], finished: bool, editable: bool, rules) -> SafeString:
    """The scoreboard of ``board`` (display._board); ``editable``: with the failed-meld
    buttons of the hand form."""
    cards = "".join(_card(k, b, finished, editable, rules) for k, b in enumerate(board))
    return mark_safe(
        f'\n<section id="scoreboard" class="scoreboard teams-{len(board)}" aria-label="Scores">'
        f"\n  {cards}\n</section>\n"
    )

"""The preview panel of the hand form: what the engine makes of what was typed (the
breakdown and new totals of each team), and every error of the form in one list.

Nothing is saved: the score comes from :func:`scoring.play.services.preview_hand`.
"""

from __future__ import annotations

from django.utils.html import conditional_escape as esc
from django.utils.safestring import SafeString, mark_safe

from scoring.labels import BREAKDOWN_WORDS
from scoring.models import Game
from scoring.play.forms.hand import HandEntry
from scoring.play.services.preview import preview_hand


def preview_panel(game: Game, entry: HandEntry, teams):
    """Score what was typed without saving: a dict for the preview panel."""
    if not entry.is_valid():
        return {"form_errors": True}
    number = entry.number
    outcome, before = preview_hand(game, entry.inputs(), number=number, teams=teams or None)
    if not outcome.ok:
        entry.apply_refusals(outcome.errors)
        return {"refused": True, "errors": outcome.errors}
    rules = game.engine_rules()
    rows = []
    for k, result in enumerate(outcome.teams):
        lines = [
            (BREAKDOWN_WORDS.get(key, key), value)
            for key, value in result.breakdown.items()
            if value or key in ("melded_cards", "cards_in_hand")
        ]
        rows.append(
            {
                "label": rules.team_label(k),
                "names": teams[k].player_names if k < len(teams) else "",
                "lines": lines,
                "hand_score": result.hand_score,
                "before": before[k] if k < len(before) else 0,
                "after": result.score_after,
                "minimum_next": result.minimum_next,
            }
        )
    winner = None
    if outcome.game_over and outcome.winner is not None:
        winner = rows[outcome.winner]
    return {"rows": rows, "game_over": outcome.game_over, "winner": winner, "number": number}


def top_errors_of(entry: HandEntry):
    """Every error of the form as (where, message), for the preview panel."""
    found = [("", m) for m in entry.top_errors]
    for form in entry.teams:
        where = form.label

        def named(message, where=where):
            # The engine's messages name the team already ("Team 1 went out ...").
            return message.startswith((where + " ", where + "'", "Teams ", "The "))

        for m in form.team_errors + form.melds_errors + form.cards_errors + form.penalty_errors:
            found.append(("" if named(m) else where, m))
        for ms in form.meld_errors.values():
            found += [("" if named(m) else where, m) for m in ms]
        for name, errors in form.errors.items():
            label = form.fields[name].label if name in form.fields else ""
            for m in errors:
                found.append(("" if named(m) else f"{where}, {label}" if label else where, m))
    return found


# -- the panel's HTML ------------------------------------------------------------------
#
# Drawn in Python (the preview answers every pause in typing): the HTML the template
# _preview.html drew, byte for byte; its test compares the two for every branch.

_BAD = (
    '\n<div class="preview bad" role="status">\n  <h2>{}</h2>\n'
    '  <ul class="errorlist">{}</ul>\n</div>\n'
)
_NOTE = '\n<div class="preview" role="status"><p{}>{}</p></div>\n'
_ROW = (
    '\n    <div>\n      <h3>{label}<span class="sr-only"> ({names})</span></h3>\n'
    '      <p class="bar-score"><strong>{score}</strong> <span class="after">'
    "Total {before} → {after}</span></p>\n"
    '      <details class="lines">\n        <summary>How<span class="sr-only"> {label}\'s '
    "score adds up</span></summary>\n        <table>\n          <tbody>\n            {lines}\n"
    '            <tr class="sum"><td>Hand score</td><td class="num">{score}</td></tr>\n'
    "          </tbody>\n        </table>\n        <p>Next hand: needs {minimum} to meld.</p>\n"
    "      </details>\n    </div>\n  "
)


def _signed(value: int) -> str:
    """``+1,480`` for a gain, ``0`` or ``-120`` otherwise (intcomma's grouping)."""
    return f"{'+' if value > 0 else ''}{value:,}"


def _team(row) -> str:
    lines = "".join(
        f'<tr><td>{esc(label)}</td><td class="num">{_signed(value)}</td></tr>'
        for label, value in row["lines"]
    )
    return _ROW.format(
        label=esc(row["label"]),
        names=esc(row["names"]),
        score=_signed(row["hand_score"]),
        before=f"{row['before']:,}",
        after=f"{row['after']:,}",
        lines=lines,
        minimum=esc(row["minimum_next"]),
    )


def _scored(preview) -> str:
    over = ""
    if preview.get("game_over"):
        w = preview["winner"]
        over = (
            f'<p class="won"><strong>This hand ends the game: {esc(w["label"])} '
            f"({esc(w['names'])}) wins.</strong></p>"
        )
    teams = "".join(_team(row) for row in preview["rows"])
    return (
        f'\n<div class="preview" role="status">\n  <h2>Preview of hand {esc(preview["number"])}'
        ' (not saved yet)</h2>\n  <p class="stale-note">Out of date: no connection. These '
        "numbers are from before your last change.</p>\n"
        f'  <div class="preview-teams">\n  {teams}\n  </div>\n  {over}\n</div>\n'
    )


def draw_preview(preview, form_errors=None) -> SafeString:
    """The preview panel: ``preview`` (from :func:`preview_panel`, or None) and, for the
    live preview, ``form_errors`` (from :func:`top_errors_of`)."""
    preview = preview or {}
    if form_errors:
        items = "".join(
            f"<li>{f'{esc(where)}: ' if where else ''}{esc(message)}</li>"
            for where, message in form_errors
        )
        body = _BAD.format("Not yet: fix these first", items)
    elif preview.get("refused"):
        items = "".join(f"<li>{esc(e.message)}</li>" for e in preview["errors"])
        body = _BAD.format("This hand cannot be scored yet", items)
    elif preview.get("rows"):
        body = _scored(preview)
    elif preview.get("form_errors"):
        body = _NOTE.format("", "Fix the boxes marked in red, then preview again.")
    else:
        words = "Type the hand: each side's score shows here before you save."
        body = _NOTE.format(' class="muted"', words)
    return mark_safe(f"\n\n{body}\n")

"""Parts of the table page drawn in Python (each the HTML its template drew): the hand
form's preview panel, the scoreboard and a hand's confirmation state."""

from django import template
from django.utils.safestring import mark_safe

from scoring.play.views.hands_table import hand_state as _hand_state
from scoring.play.views.preview import draw_preview
from scoring.play.views.scoreboard import draw_scoreboard

register = template.Library()


@register.simple_tag(takes_context=True)
def preview_panel(context):
    """The panel for the context's ``preview`` (and ``form_errors``, if any)."""
    return draw_preview(context.get("preview"), context.get("form_errors"))


@register.simple_tag(takes_context=True)
def scoreboard(context, editable=None):
    """The scoreboard of the context's ``board`` (``editable``: the context's, unless
    given: with the failed-meld buttons)."""
    editable = context.get("editable") if editable is None else editable
    game = context.get("game")
    finished = bool(game and game.is_finished)
    return draw_scoreboard(context.get("board") or [], finished, editable, context.get("rules"))


@register.simple_tag
def hand_state(confirmation):
    """A hand's confirmation state in a few words, as the hands table writes it."""
    return mark_safe(_hand_state(confirmation))

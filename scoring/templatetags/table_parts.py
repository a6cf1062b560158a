"""Parts of the table page drawn in Python (each the HTML its template drew): the hand
form's preview panel and the scoreboard."""

from django import template

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

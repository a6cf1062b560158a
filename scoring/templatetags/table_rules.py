"""What each table of a round will play, for the pages that show the seating (the
seating page, its screen view and the table cards): the day's rules at a table of
four, their variant for three or two players, or what to do when there are none."""

from django import template
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.labels import rules_words as _rules_words
from scoring.play.services.games import table_rules_name
from scoring.play.services.rulesets import rule_set_for_day

register = template.Library()


@register.simple_tag
def day_rule_set(day):
    """The rule set the club day plays (its own choice, else the club default)."""
    return rule_set_for_day(day)


@register.simple_tag
def table_plays(rule_set, players) -> str:
    """ "Plays Club house rules (three players)", or what the officer should do."""
    if not players:
        return ""
    if rule_set is None:
        return _("No rules chosen for this day yet: choose them on the day's rules page.")
    name = table_rules_name(rule_set, players)
    if name is None:
        return ngettext(
            "%(rules)s has no game for %(players)s player: move people to or from this table "
            "before play starts.",
            "%(rules)s has no game for %(players)s players: move people to or from this table "
            "before play starts.",
            players,
        ) % {"rules": _rules_words(rule_set), "players": players}
    return _("Plays %(rules)s") % {"rules": _rules_words(name)}


@register.filter
def rules_words(name) -> str:
    """A rule set's name in the reader's language (the presets'; a club's own as typed)."""
    return _rules_words(name)

"""Helpers shared by the engine tests: hand builders and assertions on refusals.

The named sample hands (and the contract's worked example) are in `scoring.tests.samples`,
shared with the database tests.
"""

from __future__ import annotations

from scoring.engine import PRESETS, HandOutcome, Refusal, score_hand
from scoring.engine.results import INTERNAL_MESSAGE
from scoring.engine.rules.spec import INTERNAL_RULES_MESSAGE

CLASSIC = PRESETS["classic"]
CLUB = PRESETS["club"]
TWO_PLAYER = PRESETS["two-player"]
SIX_PLAYER = PRESETS["six-player"]
THREE_TEAMS = PRESETS["three-teams"]


def team(**entries: object) -> dict[str, object]:
    """A team entry in the contract's shape; missing counts are 0 for the engine."""
    return dict(entries)


def melded(points: int = 120, natural: int = 0, mixed: int = 0, **entries: object) -> dict:
    """A team entered as totals that has melded ``points``."""
    return team(melded_points=points, natural_canastas=natural, mixed_canastas=mixed, **entries)


def score(rules, *teams: dict, before: list | None = None) -> HandOutcome:
    return score_hand(rules, list(teams), before)


def scored(rules, *teams: dict, before: list | None = None) -> HandOutcome:
    """Score a hand that must be accepted."""
    outcome = score(rules, *teams, before=before)
    assert outcome.ok, [error.to_dict() for error in outcome.errors]
    assert len(outcome.teams) == rules.teams
    return outcome


def is_sentence(message: str) -> bool:
    return (
        isinstance(message, str)
        and len(message) > 10
        and message[0].isupper()
        and message.rstrip().endswith(".")
        and message not in (INTERNAL_MESSAGE, INTERNAL_RULES_MESSAGE)
    )


def refused(rules, *teams: dict, before: list | None = None) -> list[Refusal]:
    """Score a hand that must be refused; every refusal must be a proper sentence."""
    outcome = score(rules, *teams, before=before)
    assert not outcome.ok, "the hand was scored but should have been refused"
    assert outcome.teams == []
    assert outcome.game_over is False and outcome.winner is None
    for error in outcome.errors:
        assert isinstance(error.field, str)
        assert is_sentence(error.message), error.message
    return outcome.errors


def only(errors: list[Refusal], field: str, *words: str) -> Refusal:
    """Exactly one refusal, for ``field``, whose message holds every word of ``words``."""
    assert len(errors) == 1, [error.to_dict() for error in errors]
    return one(errors, field, *words)


def one(errors: list[Refusal], field: str, *words: str) -> Refusal:
    """The refusal for ``field`` (there must be exactly one) holding every word given."""
    matching = [error for error in errors if error.field == field]
    assert len(matching) == 1, (field, [error.to_dict() for error in errors])
    message = matching[0].message
    for word in words:
        assert word.lower() in message.lower(), (word, message)
    return matching[0]

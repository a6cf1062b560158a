"""The JSON scoring contract (docs/scoring-contract.md): parsed JSON in, result objects out.

``score_request`` is what the ``score_hand`` management command (and anything else that
speaks the contract) calls. It takes one hand object or a list of them and never raises:
a hand that cannot be scored comes back as ``{"errors": [...]}`` while the others in the
same list are still scored.
"""

from __future__ import annotations

from ._text import describe, key_name, quote
from .hand import score_hand
from .results import INTERNAL_MESSAGE, Refusal
from .rules.presets import PRESET_SLUGS
from .rules.spec import rules_from_spec

_HAND_KEYS = ("rules", "scores_before", "teams", "hand_number")


def score_request(data: object) -> tuple[object, bool]:
    """Score the hands of a contract request; returns (result or results, all scored).

    ``data`` is parsed JSON: one hand object, or a list of them (the results then come
    back as a list in the same order). The flag is False when any hand was refused.
    """
    if isinstance(data, (list, tuple)):
        results = [score_one(hand) for hand in data]
        return results, all("errors" not in result for result in results)
    result = score_one(data)
    return result, "errors" not in result


def score_one(hand: object) -> dict[str, object]:
    """Score one hand object of the contract; returns its result object."""
    try:
        return _score_one(hand)
    except Exception:  # pragma: no cover - a safety net; the tests look for this message
        return {"errors": [Refusal("", INTERNAL_MESSAGE).to_dict()]}


def _refused(errors: list[Refusal]) -> dict[str, object]:
    return {"errors": [error.to_dict() for error in errors]}


def _score_one(hand: object) -> dict[str, object]:
    if not isinstance(hand, dict):
        return _refused(
            [
                Refusal(
                    "",
                    f"A hand must be an object with rules, scores_before and teams, "
                    f"not {describe(hand)}.",
                )
            ]
        )
    errors: list[Refusal] = []
    for key in hand:
        if key not in _HAND_KEYS:
            errors.append(
                Refusal(
                    key_name(key),
                    f"A hand has no entry called {quote(key_name(key))}; use rules, "
                    f"scores_before, teams and hand_number.",
                )
            )
    spec = hand.get("rules")
    if spec is None:
        errors.append(
            Refusal(
                "rules",
                f"Say which rules the hand is played under: a preset name "
                f"({', '.join(PRESET_SLUGS)}) or an object of settings.",
            )
        )
        rules = None
    else:
        rules, rule_errors = rules_from_spec(spec)
        errors.extend(rule_errors)
    teams = hand.get("teams")
    if rules is None:
        # Without rules the teams cannot be checked; still say if they are missing.
        if not isinstance(teams, list):
            errors.append(
                Refusal(
                    "teams", f"The teams must be a list of team entries, not {describe(teams)}."
                )
            )
        return _refused(errors)
    outcome = score_hand(rules, teams, hand.get("scores_before"), hand.get("hand_number"))
    if errors or outcome.errors:
        return _refused(errors + outcome.errors)
    return outcome.to_dict()

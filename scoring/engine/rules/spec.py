"""Reading a rule-set spec: a preset's name, or an object of settings over a preset.

:func:`rules_from_spec` is how people's input becomes a :class:`~.ruleset.RuleSet`: it
never raises, and explains every problem as a refusal naming ``rules`` or
``rules.<setting>``.
"""

from __future__ import annotations

from collections.abc import Mapping

from .._text import describe, key_name, quote, sentence_list
from ..results import Refusal
from .checks import check_together, check_value
from .fields import FIELDS_BY_NAME, RULESET_FIELD_NAMES
from .presets import CLASSIC, PRESET_SLUGS, PRESETS
from .ruleset import RuleSet

_PRESET_LIST = sentence_list(PRESET_SLUGS)


def rules_from_spec(spec: object) -> tuple[RuleSet | None, list[Refusal]]:
    """Turn a preset slug, or an object of overrides, into a rule set; never raises.

    ``spec`` is a slug (``"club"``), or ``{"preset": "club", "target_score": 3000}``
    (``preset`` defaults to ``classic``; every other key is a :data:`RULESET_FIELDS`
    name), or the output of :meth:`RuleSet.to_dict`. A :class:`RuleSet` is returned as
    it is. Problems come back as refusals whose field is ``rules`` or ``rules.<name>``.
    """
    try:
        return _rules_from_spec(spec)
    except Exception:  # pragma: no cover - a safety net; the tests look for this message
        return None, [Refusal("rules", INTERNAL_RULES_MESSAGE)]


INTERNAL_RULES_MESSAGE = (
    "The rules could not be read because of a fault in the scoring program; "
    "please report this hand to the club's officers."
)


def _rules_from_spec(spec: object) -> tuple[RuleSet | None, list[Refusal]]:
    if isinstance(spec, RuleSet):
        return spec, []
    if isinstance(spec, str):
        return _preset_named(spec)
    if not isinstance(spec, Mapping):
        return None, [
            Refusal(
                "rules",
                f"The rules must be a preset name ({_PRESET_LIST}) or an object of "
                f"settings, not {describe(spec)}.",
            )
        ]
    return _overridden(spec)


def _preset_named(slug: str) -> tuple[RuleSet | None, list[Refusal]]:
    preset = PRESETS.get(slug)
    if preset is None:
        return None, [
            Refusal(
                "rules",
                f"There is no rule set called {quote(slug)}; choose one of {_PRESET_LIST}.",
            )
        ]
    return preset, []


def _overridden(spec: Mapping) -> tuple[RuleSet | None, list[Refusal]]:
    """A preset (classic unless ``spec`` names one) with the settings of ``spec`` over it."""
    errors: list[Refusal] = []
    slug = spec.get("preset", "classic")
    base = PRESETS.get(slug) if isinstance(slug, str) else None
    if base is None:
        errors.append(
            Refusal(
                "rules.preset",
                f"The preset must be one of {_PRESET_LIST}, not {describe(slug)}.",
            )
        )
        base = CLASSIC
    values = {name: getattr(base, name) for name in RULESET_FIELD_NAMES}
    _read_overrides(spec, values, errors)
    if errors:
        return None, errors
    errors = check_together(values)
    if errors:
        return None, errors
    if all(values[name] == getattr(base, name) for name in RULESET_FIELD_NAMES):
        return base, []
    return RuleSet(**values), []


def _read_overrides(spec: Mapping, values: dict[str, object], errors: list[Refusal]) -> None:
    """Check each setting of ``spec`` alone and put its normal form into ``values``."""
    for key, value in spec.items():
        if key == "preset":
            continue
        if key not in FIELDS_BY_NAME:
            errors.append(
                Refusal(
                    f"rules.{key_name(key)}",
                    f"There is no rule setting called '{key_name(key)}'; check the spelling "
                    f"against the list of settings.",
                )
            )
            continue
        normalised, error = check_value(key, value)
        if error is not None:
            errors.append(error)
        else:
            values[key] = normalised

"""The history's lines of a corrected hand say what changed in the reader's words: a
team's going out as yes or no, never the label twice ("went out went out → no")."""

import pytest
from django.utils import translation

from scoring.play.history import describe_changes

LABELS = ["Team 1", "Team 2"]


@pytest.mark.parametrize(
    ("language", "out_to_none", "none_to_concealed"),
    [
        ("en", "Team 1 went out yes → no", "Team 2 went out no → yes, concealed"),
        ("es", "Team 1 cortó sí → no", "Team 2 cortó no → sí, de mano"),
        ("pt-br", "Team 1 bateu sim → não", "Team 2 bateu não → sim, de mão"),
    ],
)
def test_going_out_is_said_once_with_its_value(language, out_to_none, none_to_concealed):
    old = [{"went_out": "out"}, {"went_out": "none"}]
    new = [{"went_out": "none"}, {"went_out": "concealed"}]
    with translation.override(language):
        lines = describe_changes(old, new, LABELS)
    assert out_to_none in lines and none_to_concealed in lines

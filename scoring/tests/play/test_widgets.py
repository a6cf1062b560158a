"""The hand form's fast widgets write exactly what Django's widget templates write."""

import pytest
from django import forms
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.play import widgets as fast

PAIRS = [
    (fast.TextInput, forms.TextInput),
    (fast.HiddenInput, forms.HiddenInput),
    (fast.CheckboxInput, forms.CheckboxInput),
]

text = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12)
attr_names = st.from_regex(r"[a-z][a-z-]{0,8}", fullmatch=True)
attr_values = st.one_of(st.booleans(), text, st.integers(-5, 500))


@settings(max_examples=200, deadline=None)
@given(
    pair=st.sampled_from(PAIRS),
    value=st.one_of(st.none(), text, st.integers(0, 10**7)),
    attrs=st.dictionaries(attr_names, attr_values, max_size=5),
)
def test_inputs_match_django(pair, value, attrs):
    mine, django = pair
    assert mine(attrs=attrs).render("t0-x", value) == django(attrs=attrs).render("t0-x", value)


class Mine(forms.Form):
    choice = forms.ChoiceField(
        choices=[("a", "A & co"), ("b", '"B"')], widget=fast.RadioSelect, initial="b"
    )


class Theirs(forms.Form):
    choice = forms.ChoiceField(
        choices=[("a", "A & co"), ("b", '"B"')], widget=forms.RadioSelect, initial="b"
    )


@pytest.mark.parametrize("data", [None, {"choice": "a"}, {"choice": "<x>"}])
def test_radio_options_match_django(data):
    mine, theirs = Mine(data, prefix="t1"), Theirs(data, prefix="t1")
    assert [r.tag() for r in mine["choice"]] == [r.tag() for r in theirs["choice"]]
    # The whole group and label-wrapped options still come from Django's templates.
    assert str(mine["choice"]) == str(theirs["choice"])
    assert [r.tag(wrap_label=True) for r in mine["choice"]] == [
        r.tag(wrap_label=True) for r in theirs["choice"]
    ]

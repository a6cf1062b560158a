"""No input gives a 500: random text and numbers in every box of the hand form."""

from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import engine
from scoring.play.forms import PENALTY_FIELDS, QUICK_FIELDS
from scoring.play.services.hands import record_hand
from scoring.tests.samples import SMALL


def field_names():
    names = ["number", "version", "action", "as_number"]
    for i in range(3):
        p = f"t{i}-"
        names += [
            p + "mode",
            p + "went_out",
            p + "red_threes",
            p + "perfect_cut",
            p + "pen_other_points",
            p + "pen_other_note",
        ]
        names += [p + n for n in QUICK_FIELDS]
        names += [p + n for n in PENALTY_FIELDS.values()]
        for rank in engine.MELD_RANKS:
            for part in ("naturals", "jokers", "twos"):
                names.append(f"{p}meld_{rank.lower()}_{part}")
        names += [f"{p}card_{k.lower()}" for k in engine.HAND_CARD_KEYS]
    return names


NAMES = field_names()

values = st.one_of(
    st.text(max_size=30),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.integers(min_value=0, max_value=200).map(str),
    st.sampled_from(
        [
            "",
            "0",
            "5",
            "none",
            "out",
            "concealed",
            "quick",
            "detailed",
            "on",
            "failed-0",
            "unfailed-1",
            "preview",
            "save",
            "1e9",
            "٣",
            "５",
            "-0",
            "1,180",
            " 35 ",
            "NaN",
            "\x00",
            "9" * 40,
        ]
    ),
)
posts = st.dictionaries(st.sampled_from(NAMES), values, max_size=40)

FUZZ = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@FUZZ
@given(data=posts)
def test_hand_form_never_fails(link_client, game, data):
    for url, extra in (
        (reverse("scoring:hand_new", args=[game.pk]), {}),
        (reverse("scoring:hand_preview", args=[game.pk]), {"HTTP_HX_REQUEST": "true"}),
    ):
        response = link_client.post(url, data, **extra)
        assert response.status_code < 500, (url, data)


@FUZZ
@given(data=posts)
def test_correction_form_never_fails(officer_client, game, data):
    if not game.hand_count:
        record_hand(game, [SMALL, SMALL], number=1)
    response = officer_client.post(reverse("scoring:hand_edit", args=[game.pk, 1]), data)
    assert response.status_code < 500, data


@FUZZ
@given(
    data=st.dictionaries(
        st.sampled_from(
            [
                "team0_player0",
                "team0_player1",
                "team1_player0",
                "team1_player1",
                "score_keeper",
                "first_dealer",
                "rule_set",
                "method",
                "high_card",
            ]
        ),
        values,
        max_size=9,
    )
)
def test_start_and_next_game_forms_never_fail(officer_client, table, club_rules, data):
    response = officer_client.post(reverse("scoring:game_start", args=[table.pk]), data)
    assert response.status_code < 500, data


@FUZZ
@given(
    data=st.dictionaries(
        st.sampled_from(
            ["name", "description"] + [f.name for f in engine.RULESET_FIELDS if f.name != "name"]
        ),
        values,
        max_size=12,
    )
)
def test_rule_set_form_never_fails(officer_client, club_rules, data):
    from scoring.models import RuleSet

    mine, _ = RuleSet.objects.get_or_create(
        slug="fuzz", defaults={"name": "Fuzz", "based_on": "club", "settings": club_rules.settings}
    )
    response = officer_client.post(f"/rules/{mine.pk}/edit/", data)
    assert response.status_code < 500, data
    mine.refresh_from_db()
    mine.as_engine()  # whatever was saved is a valid rule set

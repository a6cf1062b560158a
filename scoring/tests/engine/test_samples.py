"""The sample hands score what `scoring.tests.samples` says they do, under the club's
rules: every database test that adds them up relies on those numbers."""

import pytest

from scoring.tests import samples

from .helpers import CLUB, scored


@pytest.mark.parametrize(
    "hand, points",
    [
        (samples.WIN, samples.WIN_SCORE),
        (samples.LOSE, samples.LOSE_SCORE),
        (samples.CONCEALED, samples.CONCEALED_SCORE),
        (samples.BIG, samples.BIG_SCORE),
        (samples.SMALL, samples.SMALL_SCORE),
    ],
    ids=["WIN", "LOSE", "CONCEALED", "BIG", "SMALL"],
)
def test_each_sample_hand_scores_its_documented_points(hand, points):
    other = samples.SMALL if hand["went_out"] != "none" else samples.BIG
    outcome = scored(CLUB, hand, other)
    assert outcome.teams[0].hand_score == points


def test_three_wins_end_a_game_and_four_big_hands_do():
    totals = [0, 0]
    for _ in range(3):
        outcome = scored(CLUB, samples.WIN, samples.LOSE, before=totals)
        totals = [team.score_after for team in outcome.teams]
    assert totals == [5700, 450] and outcome.game_over
    totals = [0, 0]
    for hand in range(4):
        outcome = scored(CLUB, samples.BIG, samples.SMALL, before=totals)
        totals = [team.score_after for team in outcome.teams]
        assert outcome.game_over == (hand == 3)
    assert totals == [5600, 320]


def test_quick_gives_every_key_of_the_quick_form():
    assert samples.quick() == {
        "melded_points": 0,
        "natural_canastas": 0,
        "mixed_canastas": 0,
        "hand_points": 0,
        "red_threes": 0,
        "went_out": "none",
        "perfect_cut": False,
        "penalties": [],
    }

"""Closing a day with games still in play: the officer chooses, game by game, to end it
as it stands (the side ahead wins; it then counts like any finished game, ratings too)
or to leave it unfinished (it counts nowhere); every page, the day sheet, the e-mail
and the workbook's Summary then count the same games."""

import secrets

import pytest
from django.core import mail
from django.test import TestCase
from django.urls import reverse
from openpyxl import load_workbook

from members.models import ClubDay
from members.tests.factories import ClubDayFactory, MemberFactory, TableFactory
from scoring.models import Game, PersonTotal, RatingPoint
from scoring.play.services.endings import end_game_as_it_stands
from scoring.play.services.errors import GameClosed
from scoring.play.services.hands import correct_hand, undo_last_hand
from scoring.results import exports, standings
from scoring.results.workbook_summary import GAMES, PLAYERS, TABLES, UNFINISHED
from scoring.tests import games
from scoring.tests.samples import LOSE, WIN

pytestmark = pytest.mark.django_db


def names(prefix, n=4):
    return [
        MemberFactory(
            first_name=f"{prefix}{i}",
            last_name="Player",
            email=f"{prefix.lower()}{i}@example.org",
            results_by_email=True,
        )
        for i in range(1, n + 1)
    ]


@pytest.fixture
def night():
    """Four tables of four: tables 1 and 2 finished their game; at table 3 the A side
    leads 1,900 to 150 after one hand; table 4 has not played a hand (0-0)."""
    people = [names(p) for p in "ABCD"]
    day = ClubDayFactory(signed_in=[p for four in people for p in four])
    tables = [TableFactory(round__day=day, number=n + 1, seated=people[n]) for n in range(4)]
    for t, (a, b, c, d) in zip(tables[:2], people[:2], strict=True):
        games.win(t, [a, b], [c, d])
    a, b, c, d = people[2]
    leading = games.play(tables[2], [[a, b], [c, d]], [[WIN, LOSE]])
    a, b, c, d = people[3]
    level = games.play(tables[3], [[a, b], [c, d]], [])
    return {"day": day, "leading": leading, "level": level, "people": people}


def close(client, day, **choices):
    with TestCase.captureOnCommitCallbacks(execute=True):
        return client.post(reverse("members:day", args=[day.pk]), {"action": "close", **choices})


def test_the_closing_page_asks_game_by_game_and_says_what_each_choice_does(officer_client, night):
    page = officer_client.get(reverse("members:day_close", args=[night["day"].pk]))
    text = page.content.decode()
    leading, level = night["leading"], night["level"]
    assert "Still in play: 2 games" in text
    assert "C1 Player &amp; C2 Player lead 1,900 to 150" in text  # who leads, by how much
    assert f'name="game-{leading.pk}" value="end"' in text
    assert f'name="game-{leading.pk}" value="leave"' in text
    assert "End it as it stands: C1 Player &amp; C2 Player win" in text
    assert "ratings change as for any game" in text
    assert "It counts nowhere: not in the standings" in text
    # Nobody leads 0-0: that game can only stay unfinished.
    assert f'name="game-{level.pk}" value="end"' not in text
    assert f'name="game-{level.pk}" value="leave"' in text


def test_ending_a_game_as_it_stands_counts_it_everywhere(officer_client, night):
    day, leading, level = night["day"], night["leading"], night["level"]
    response = close(
        officer_client, day, **{f"game-{leading.pk}": "end", f"game-{level.pk}": "leave"}
    )
    assert response.status_code == 302
    assert not ClubDay.objects.get(pk=day.pk).is_open
    leading.refresh_from_db()
    level.refresh_from_db()
    assert leading.is_finished and leading.ended_early
    assert leading.winner.index == 0 and leading.winner.won
    assert level.status == Game.Status.PLAYING
    # Through the play services: ratings and the players' totals, as for any game.
    a, b, c, d = night["people"][2]
    assert RatingPoint.objects.filter(game=leading).count() == 4
    assert PersonTotal.objects.get(person=a).wins == 1
    loser = PersonTotal.objects.get(person=c)
    assert (loser.games, loser.wins) == (1, 0)

    # The day's page: the ended game is finished, the other one is unfinished (no
    # "Playing", no "Leading" for a day that is over).
    page = officer_client.get(reverse("scoring:day_result", args=[day.pk])).content.decode()
    assert "Ended early" in page and "Unfinished" in page
    assert ">Playing<" not in page and "Leading</span>" not in page
    assert "C1 Player" in page.split('id="games-heading"')[0]  # in the top six

    # The day sheet counts the same three games and names the one left out.
    sheet = officer_client.get(reverse("scoring:day_sheet", args=[day.pk])).content.decode()
    assert sheet.count("(won)") == 3
    assert "Left unfinished (not counted)" in sheet and "Table 4, game 1 (0 hands)" in sheet

    # The e-mail: the same games, and the one left out.
    officer_client.post(
        reverse("scoring:send_results", args=[day.pk]),
        {"key": secrets.token_urlsafe(24), "again": "no"},
    )
    body = next(m.body for m in mail.outbox if m.to == ["c1@example.org"])
    assert "Table 3, game 1: you won, 1,900 to 150" in body
    assert body.count("(won)") == 3
    assert "Left unfinished, so not counted: table 4, game 1." in body


def test_the_summary_says_what_it_counts(officer_client, night, tmp_path):
    day, leading, level = night["day"], night["leading"], night["level"]
    close(officer_client, day, **{f"game-{leading.pk}": "end", f"game-{level.pk}": "leave"})
    path = tmp_path / "w.xlsx"
    exports.write_league_workbook_to_path(path, standings.ALL_GAMES)
    sheet = load_workbook(path)["Summary"]
    header = [c.value for c in sheet[1]]
    row = dict(zip(header, [c.value for c in sheet[2]], strict=True))
    assert (row[GAMES], row[TABLES], row[PLAYERS], row[UNFINISHED]) == (3, 3, 12, 1)
    assert row["Signed in"] == 16


def test_leaving_every_game_unfinished_is_what_a_plain_close_does(officer_client, night):
    close(officer_client, night["day"])
    assert Game.objects.filter(status=Game.Status.PLAYING).count() == 2
    assert not RatingPoint.objects.filter(game=night["leading"]).exists()


def test_a_level_game_cannot_be_ended(night):
    with pytest.raises(GameClosed, match="no side is ahead"):
        end_game_as_it_stands(night["level"])


def test_an_ended_game_stays_ended_after_a_correction_and_reopens_when_level(night):
    game = night["leading"]
    with TestCase.captureOnCommitCallbacks(execute=True):
        end_game_as_it_stands(game)
    hand = game.hand_set.get()
    with TestCase.captureOnCommitCallbacks(execute=True):
        correct_hand(hand, [dict(LOSE), dict(WIN)], expected_version=hand.version)
    game.refresh_from_db()
    assert game.is_finished and game.ended_early and game.winner.index == 1
    with TestCase.captureOnCommitCallbacks(execute=True):
        undo_last_hand(game, expected_hand_count=1)
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING and not game.ended_early


def test_nobody_leads_a_game_at_0_0(officer_client, night):
    """The day's page marks the side ahead "Leading"; at 0-0 nobody is ahead."""
    page = officer_client.get(reverse("scoring:day_result", args=[night["day"].pk]))
    text = page.content.decode()
    assert text.count('<span class="badge">Leading</span>') == 1  # table 3 only
    assert '<span class="badge">Level</span>' in text  # table 4, 0-0


def test_a_game_that_changed_after_the_closing_page_was_drawn_is_not_ended(officer_client, night):
    """The page said who leads; a hand undone after it was drawn may have changed that,
    so the game is left unfinished (and the officer told) instead of ended with a winner
    the officer never saw."""
    day, leading = night["day"], night["leading"]
    page = officer_client.get(reverse("members:day_close", args=[day.pk])).content.decode()
    version = leading.version
    assert f'name="game-{leading.pk}-version" value="{version}"' in page
    undo_last_hand(leading, expected_hand_count=leading.hand_count)  # after the page was drawn
    response = close(
        officer_client,
        day,
        **{f"game-{leading.pk}": "end", f"game-{leading.pk}-version": str(version)},
    )
    assert response.status_code == 302
    leading.refresh_from_db()
    assert not leading.is_finished
    shown_after = officer_client.get(response["Location"]).content.decode()
    assert "changed after this page was drawn, so it was left unfinished" in shown_after

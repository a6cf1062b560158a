"""Journey: the room board fits a 1,280 x 800 screen with four tables in play and the
day's first results, without scrolling (nobody is there to scroll a wall screen)."""

import pytest
from django.utils import timezone

from members.tests.factories import ClubDayFactory, TableFactory
from scoring.play.services.games import next_game
from scoring.tests import games
from scoring.tests.samples import LOSE, WIN

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def test_four_tables_and_results_fit_a_1280_by_800_screen(journey, officer_user):
    day = ClubDayFactory(date=timezone.localdate(), title="Evening")
    people = games.people(16)
    tables = [TableFactory(round__day=day, seated=people[4 * i : 4 * i + 4]) for i in range(4)]
    for i, table in enumerate(tables):
        four = people[4 * i : 4 * i + 4]
        if i < 2:  # two tables finished a game and started the next
            games.win(table, four[:2], four[2:], hands=3)
            game = table.games.get()
            next_game(game, [[four[0], four[2]], [four[1], four[3]]])
        else:
            games.play(table, [four[:2], four[2:]], [[WIN, LOSE]], on_the_day=False)
    page = journey.page
    journey.login("officer", "officer-pass-123")
    page.set_viewport_size({"width": 1280, "height": 800})
    journey.goto(f"/board/{day.pk}/")
    journey.step("room board, 1280 x 800, four tables")
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height <= 800, height

"""The stored all-games rows (PersonTotal, issue #14) agree with a recompute from the
games and hands: after games finish, a correction, an undo that re-opens a finished
game, a merge, and ``rebuild_totals``; a member's page reads them in a fixed number of
queries and its tables show what the rows hold."""

import datetime
import io

import pytest
from django.core.management import call_command
from django.db.models import F
from django.template import RequestContext, Template
from django.test import RequestFactory, TestCase, override_settings
from django.urls import reverse

from members.services.merge import merge_people
from members.tests.factories import ClubDayFactory, GuestFactory, MemberFactory, TableFactory
from scoring.models import (
    Game,
    Hand,
    PersonTotal,
    RatingPoint,
    ResultsVersion,
    RuleSet,
    Season,
    TeamHand,
)
from scoring.models.totals import STAT_FIELDS
from scoring.play.services.hands import correct_hand, undo_last_hand
from scoring.results.ratings import as_shown
from scoring.results.standings import player as games_of
from scoring.results.standings.individual import individual
from scoring.results.standings.periods import finished_players
from scoring.results.tables.player import ROWS, OpponentsTable, PartnersTable, PlayerGamesTable
from scoring.results.views.common import paginate
from scoring.tests.games import league, play, win
from scoring.tests.samples import CONCEALED, LOSE, WIN

pytestmark = pytest.mark.django_db
START = datetime.date(2025, 3, 6)
PLAYED = ("game__day_date", F("game__finished_at").asc(nulls_last=True), "game_id")


def recompute(person) -> dict:
    """What the stored row should hold, straight from the games and hands (the
    queries the page made before the rows were stored)."""
    rows = individual(person_ids=[person.pk], with_ratings=False)
    if not rows:
        return {}
    mine = finished_players().filter(person=person).order_by(*PLAYED)
    best_game = mine.order_by("-team__total", *PLAYED).first()
    canastas = mine.annotate(c=F("team__natural_canastas") + F("team__mixed_canastas"))
    canastas = canastas.order_by("-c", *PLAYED).first()
    hands = TeamHand.objects.filter(game__status="finished", team__memberships__person=person)
    hands = hands.order_by(*PLAYED, "hand__number")
    best_hand = hands.order_by("-hand_score", *PLAYED, "hand__number").first()
    red = hands.order_by("-red_threes", *PLAYED, "hand__number").first()
    streak, run, start, found = 0, 0, None, (None, None)
    for seat in mine.select_related("team", "game"):
        run = run + 1 if seat.team.won else 0
        start = seat.game.day_date if run == 1 else start
        if run > streak:
            streak, found = run, (start, seat.game.day_date)
    return {
        **{name: rows[0][name] for name in STAT_FIELDS},
        "best_game_in_id": best_game.game_id,
        "best_hand_in_id": best_hand.game_id,
        "best_hand_number": best_hand.hand.number,
        "most_canastas": canastas.c,
        "most_canastas_in_id": canastas.game_id if canastas.c else None,
        "most_red_threes": red.red_threes,
        "most_red_threes_in_id": red.game_id if red.red_threes else None,
        "most_red_threes_number": red.hand.number if red.red_threes else None,
        "streak": streak,
        "streak_start": found[0],
        "streak_end": found[1],
    }


def stored(person) -> dict:
    row = PersonTotal.objects.filter(person=person).first()
    if row is None:
        return {}
    return {key: getattr(row, key) for key in recompute_keys()}


def recompute_keys():
    return (
        *STAT_FIELDS,
        "best_game_in_id",
        "best_hand_in_id",
        "best_hand_number",
        "most_canastas",
        "most_canastas_in_id",
        "most_red_threes",
        "most_red_threes_in_id",
        "most_red_threes_number",
        "streak",
        "streak_start",
        "streak_end",
    )


def assert_agree(people) -> None:
    for person in people:
        assert stored(person) == recompute(person), person


def everyone(pool):
    return [p for four in pool for p in four]


def test_rows_follow_games_corrections_undo_and_rebuild():
    pool = league(days=3, tables=2, games=2, start=START)
    people = everyone(pool)
    assert PersonTotal.objects.count() == len(set(people))
    assert_agree(people)
    game = Game.objects.finished().order_by("-pk").first()
    hand = Hand.objects.get(game=game, number=1)
    with TestCase.captureOnCommitCallbacks(execute=True):
        correct_hand(hand, [LOSE, CONCEALED], expected_version=hand.version)
    assert_agree(people)
    game.refresh_from_db()
    with TestCase.captureOnCommitCallbacks(execute=True):
        undo_last_hand(game, expected_hand_count=game.hand_count)
    assert_agree(people)
    before = {p.pk: stored(p) for p in people}
    PersonTotal.objects.all().delete()
    call_command("rebuild_totals", stdout=io.StringIO())
    assert {p.pk: stored(p) for p in people} == before


def test_streak_best_hand_and_someone_who_never_played():
    a, b, c, d = (MemberFactory(first_name=n) for n in "ABCD")
    for i, (winners, losers) in enumerate([((a, b), (c, d))] * 2 + [((c, d), (a, b))]):
        day = ClubDayFactory(date=START + datetime.timedelta(i))
        tbl = TableFactory(round__day=day, seated=[a, b, c, d])
        win(tbl, winners, losers)
    tbl = TableFactory(
        round__day=ClubDayFactory(date=START + datetime.timedelta(9)), seated=[a, b, c, d]
    )
    play(tbl, [[a, b], [c, d]], [[WIN, LOSE], [CONCEALED, LOSE], [WIN, LOSE]])
    assert_agree([a, b, c, d])
    row = PersonTotal.objects.get(person=a)
    assert (row.streak, row.streak_start, row.streak_end) == (
        2,
        START,
        START + datetime.timedelta(1),
    )
    assert row.best_hand_number == 2 and row.best_hand_in_id == Game.objects.latest("pk").pk
    nobody = MemberFactory(first_name="No", last_name="Games")
    assert not PersonTotal.objects.filter(person=nobody).exists()
    assert not any(games_of.personal_bests(nobody).values())


def test_a_merge_adds_the_two_records_up_as_one():
    pool = league(days=2, tables=2, games=1, start=START)
    kept = pool[0][0]
    removed = MemberFactory(first_name="Twice", last_name="Recorded")
    foursome = [removed, *pool[1][1:]]
    win(
        TableFactory(
            round__day=ClubDayFactory(date=START + datetime.timedelta(20)), seated=foursome
        ),
        foursome[:2],
        foursome[2:],
    )
    assert PersonTotal.objects.filter(person=removed).exists()
    with TestCase.captureOnCommitCallbacks(execute=True):
        merge_people(kept, removed)
    assert not PersonTotal.objects.filter(person=removed).exists()
    assert_agree(everyone(pool))


def test_the_best_rating_and_the_totals_rating_come_from_the_series():
    pool = league(days=2, tables=1, games=2, start=START)
    person = pool[0][0]
    points = RatingPoint.objects.filter(person=person)
    best = points.order_by("-ordinal", "played_on").first()
    bests = games_of.personal_bests(person)
    # Rounded to the step the rating is shown in, as every page rounds it.
    assert bests["best_rating"]["value"] == as_shown(best.ordinal)
    assert bests["best_rating"]["game"]["day_date"] == best.game.day_date
    latest = points.order_by("-played_on", "-pk").first()
    assert games_of.rating_on(games_of.rating_series(person), None) == as_shown(latest.ordinal)
    assert games_of.rating_on(games_of.rating_series(person), START - datetime.timedelta(1)) is None


def test_the_player_tables_show_guests_missing_partners_and_ratings():
    """The player's tables escape names, mark guests, and show "—" for a game of two
    (no partner) and a game without a rating."""
    a, b, c = (MemberFactory(first_name=n, last_name="<Esc&pe>") for n in "ABC")
    guest = GuestFactory(first_name="Gus", brought_by=None)
    day = ClubDayFactory(date=START)
    win(TableFactory(round__day=day, number=1, seated=[a, guest, b, c]), [a, guest], [b, c])
    later = ClubDayFactory(date=START + datetime.timedelta(1))
    two = TableFactory(round__day=later, number=2, seated=[a, b])
    play(two, [[a], [b]], [[WIN, LOSE]] * 3, rule_set=RuleSet.objects.get(slug="two-player"))
    RatingPoint.objects.filter(person=a).order_by("pk").first().delete()
    request = RequestFactory().get("/")
    template = Template("{% load django_tables2 %}{% render_table t %}")
    drawn = {}
    for table in (
        PlayerGamesTable(games_of.player_games(a)),
        PartnersTable(games_of.partners(a)),
        OpponentsTable(games_of.opponents(a)),
    ):
        html = template.render(RequestContext(request, {"t": paginate(request, table)}))
        assert "<Esc" not in html, type(table).__name__
        drawn[type(table).__name__] = html
    assert "&lt;Esc&amp;pe&gt;" in drawn["PlayerGamesTable"]
    assert "&lt;Esc&amp;pe&gt;" in drawn["OpponentsTable"]
    games = drawn["PlayerGamesTable"]
    assert games.split("<tbody", 1)[1].count("<tr ") == 2  # two games (the header's row apart)
    assert '<span class="badge">guest</span>' in games
    assert 'data-label="Partner">—</td>' in games  # the game of two
    assert 'data-label="Rating after">—</td>' in games  # the rating deleted
    assert f'href="{reverse("scoring:player", args=[guest.pk])}"' in drawn["PartnersTable"]


def _drawn_page_queries(client, url, django_assert_max_num_queries) -> int:
    client.get(url)
    ResultsVersion.bump()
    with django_assert_max_num_queries(40) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_the_drawn_page_reads_a_fixed_number_of_queries(
    officer_client, django_assert_max_num_queries
):
    pool = league(days=1, tables=2, games=1, start=START)
    url = reverse("scoring:player", args=[pool[0][0].pk])
    small = _drawn_page_queries(officer_client, url, django_assert_max_num_queries)
    league(days=4, games=3, start=START + datetime.timedelta(7), pool=pool)
    assert _drawn_page_queries(officer_client, url, django_assert_max_num_queries) == small
    # The request's own (session, people, results version, cache look-up), the body's
    # eight reads, and storing the body in the database cache.
    assert small <= 20, small


@override_settings(DJANGO_TABLES2_PAGE_RANGE=3)  # a short range: its '...' is drawn too
def test_the_tables_of_a_busy_page_sort_and_page_each_on_their_own():
    """The three tables of a member's page each take their own sort and page (their
    prefix): a page out of range, a sort by a computed column, a table with no rows."""
    person = MemberFactory(first_name="Busy")
    others = [MemberFactory(first_name=f"O{i:02d}") for i in range(120)]
    for i in range(0, 120, 3):
        partner, *them = others[i : i + 3]
        day = ClubDayFactory(date=START + datetime.timedelta(i))
        tbl = TableFactory(round__day=day, seated=[person, partner, *them])
        win(tbl, [person, partner], them) if i % 2 else win(tbl, them, [person, partner])
    template = Template("{% load django_tables2 %}{% render_table t %}")
    query = "?o-page=4&o-sort=-differential&p-page=2&sort=-rating_after"
    request = RequestFactory().get("/" + query)
    games = paginate(request, PlayerGamesTable(games_of.player_games(person)))
    ratings = [row.record.rating_after for row in games.page.object_list]
    assert ratings == sorted(ratings, reverse=True) and len(ratings) == ROWS
    opponents = paginate(request, OpponentsTable(games_of.opponents(person), prefix="o-"))
    assert opponents.page.number == 4
    differences = [row.record["differential"] for row in opponents.page.object_list]
    assert differences == sorted(differences, reverse=True)
    html = template.render(RequestContext(request, {"t": opponents}))
    assert "o-page=3" in html and "..." in html and 'aria-sort="descending"' in html
    nobody = MemberFactory(first_name="No", last_name="Games")
    empty = paginate(request, PartnersTable(games_of.partners(nobody), prefix="p-"))
    assert "No partners yet." in template.render(RequestContext(request, {"t": empty}))


def test_the_page_shows_the_stored_totals_as_the_standings_count_them(officer_client):
    """The two cards of a member's page (the current season's totals, read with the
    stored row in one query, and all games) equal the standings' aggregate."""
    spring = Season.objects.create(name="Spring", start=START, end=START + datetime.timedelta(8))
    pool = league(days=3, tables=1, games=2, start=START)  # the third day is after it
    person = pool[0][0]
    context = officer_client.get(reverse("scoring:player", args=[person.pk])).context
    keys = ("games", "wins", "win_pct", "average", "differential", "rating")
    season_row = individual(spring.start, spring.end, person_ids=[person.pk])[0]
    assert {k: context["season_totals"][k] for k in keys} == {k: season_row[k] for k in keys}
    all_row = individual(person_ids=[person.pk])[0]
    assert {k: context["totals"][k] for k in keys} == {k: all_row[k] for k in keys}
    assert context["season_totals"]["games"] < context["totals"]["games"]
    nobody = MemberFactory(first_name="No", last_name="Games")
    context = officer_client.get(reverse("scoring:player", args=[nobody.pk])).context
    assert context["totals"] is None and context["season_totals"] is None

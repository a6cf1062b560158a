"""generate_league: a tiny league through the real command; every hand valid under the
engine; the same seed gives the same rows; an existing history is never added to by
accident."""

from __future__ import annotations

import datetime
import random
from collections import Counter

import pytest
from django.core.management import CommandError, call_command
from django.test import override_settings

from members import services as members_services
from members.clubs.scope import in_club
from members.models import ClubDay, Person, Seat, SignIn, Table
from scoring import engine
from scoring.devtools.league.dates import club_dates
from scoring.devtools.league.generate import generate_league
from scoring.devtools.league.options import LeagueOptions
from scoring.devtools.league.people import weighted_sample
from scoring.models import (
    Game,
    GameTeam,
    Hand,
    RatingPoint,
    RuleSet,
    Season,
    TeamHand,
    TeamPlayer,
)
from scoring.play.services.hands import rebuild_game
from scoring.tests.devtools.canonical import canonical_rows
from testsupport import first_club, restore_migration_data

TINY = [
    "--people",
    "24",
    "--years",
    "1",
    "--days-per-year",
    "3",
    "--tables-min",
    "2",
    "--tables-max",
    "3",
    "--quiet",
]


def generate(*extra):
    call_command("generate_league", *TINY, *extra)


@pytest.fixture
def tiny(db):
    generate("--seed", "5")


# ---------------------------------------------------------------------------------------
# What is written


def test_tiny_league_has_people_days_signins_tables_and_two_games_per_table(tiny):
    assert Person.objects.count() == 24
    members = Person.objects.members()
    guests = Person.objects.guests()
    assert members.count() > guests.count() > 0
    assert not members.filter(membership_number__isnull=True).exists()
    assert all(g.brought_by and g.brought_by.is_member for g in guests)

    days = list(ClubDay.objects.order_by("date"))
    assert len(days) == 3
    assert all(d.status == ClubDay.Status.CLOSED and d.closed_at for d in days)
    assert all(d.date.year == 2021 and d.date.weekday() in (1, 3) for d in days)
    assert Season.objects.filter(name="2021", start=datetime.date(2021, 1, 1)).exists()

    for day in days:
        tables = Table.objects.filter(round__day=day)
        assert 2 <= tables.count() <= 3
        assert SignIn.objects.filter(day=day).count() == 4 * tables.count()
        assert Seat.objects.filter(round__day=day).count() == 4 * tables.count()
        assert day.rules.rule_set == RuleSet.objects.club_default()
        for table in tables:
            games = list(Game.objects.filter(table=table).order_by("number"))
            assert [g.number for g in games] == [1, 2]
            assert all(g.is_finished and g.winner_id for g in games)
            # New partnerships in the second game, same four people.
            first, second = (
                {
                    frozenset(t.players.values_list("pk", flat=True))
                    for t in GameTeam.objects.filter(game=g)
                }
                for g in games
            )
            assert first != second
            assert set().union(*first) == set().union(*second)
        # Guests at the door came with a member who signed in that day.
        present = set(SignIn.objects.filter(day=day).values_list("person_id", flat=True))
        for signin in SignIn.objects.filter(day=day, person__kind=Person.Kind.GUEST):
            assert signin.brought_by_id in present


def test_every_hand_is_valid_and_every_stored_number_is_the_engines(tiny):
    hands = Hand.objects.select_related("game").order_by("game_id", "number")
    assert hands.count() >= 3 * 2 * 2 * 3  # days × tables × games × a few hands
    checked = 0
    for hand in hands:
        rules = hand.game.engine_rules()
        rows = list(TeamHand.objects.filter(hand=hand).order_by("team__index"))
        before = [row.score_before for row in rows]
        outcome = engine.score_hand(rules, hand.inputs, before)
        assert outcome.ok, (hand, outcome.errors)
        for row, result in zip(rows, outcome.teams, strict=True):
            assert row.hand_score == result.hand_score
            assert row.score_after == result.score_after
            assert row.minimum_before == result.minimum_before
            assert row.minimum_next == result.minimum_next
            assert row.breakdown == dict(result.breakdown)
            assert row.went_out == result.went_out
        # The game ends exactly at its last hand.
        assert outcome.game_over == (hand.number == hand.game.hand_count)
        checked += 1
    for game in Game.objects.all():
        last = TeamHand.objects.filter(game=game, hand__number=game.hand_count)
        totals = {row.team_id: row.score_after for row in last}
        for team in GameTeam.objects.filter(game=game):
            assert team.total == totals[team.pk]
            assert team.won == (game.winner_id == team.pk)
        assert TeamPlayer.objects.filter(game=game).count() == 4
    assert checked == Hand.objects.count()


def test_the_generated_league_is_what_the_services_rebuild(tiny):
    before = canonical_rows()
    for game in Game.objects.all():
        rebuild_game(game)
    after = canonical_rows()
    for key in ("games", "teams", "team_hands", "winners"):
        assert after[key] == before[key], key


# ---------------------------------------------------------------------------------------
# The same seed gives the same league


def _flush():
    """Empty the database, then make again what the migrations wrote (the presets, the
    club); the new club's scope (a context manager) to go on in."""
    call_command("flush", interactive=False, verbosity=0)
    restore_migration_data()
    return in_club(first_club())


@pytest.mark.django_db(transaction=True)
def test_same_seed_same_league_and_another_seed_another():
    generate("--seed", "3")
    first = canonical_rows()
    assert RatingPoint.objects.exists()  # ratings ran on commit, day by day
    with _flush():
        generate("--seed", "3")
        second = canonical_rows()
    assert Counter({k: len(v) for k, v in first.items()}) == Counter(
        {k: len(v) for k, v in second.items()}
    )
    for key in first:
        assert first[key] == second[key], key
    with _flush():
        generate("--seed", "4")
        assert canonical_rows()["hands"] != first["hands"]


TINY_OPTIONS = LeagueOptions(
    people=24, years=1, days_per_year=3, tables_min=2, tables_max=3, seed=9
)


@pytest.mark.django_db(transaction=True)
def test_bulk_hands_write_the_same_rows_as_record_hand():
    """The league writes each game with record_played_game; its rows must be those of
    recording the hands one by one with record_hand."""
    generate_league(TINY_OPTIONS)
    bulk = canonical_rows()
    bulk_history = Hand.history.count()
    with _flush():
        generate_league(TINY_OPTIONS, hand_by_hand=True)
        one_by_one = canonical_rows()
        assert Hand.history.count() == bulk_history > 0
    for key in bulk:
        assert bulk[key] == one_by_one[key], key


def test_each_round_replays_from_its_seed_as_the_door_would_draw_it(tiny):
    from members import draw
    from members.models import Round

    for round_ in Round.objects.all():
        people = members_services.signed_in_ids(round_.day)
        seating = draw.draw(people, round_.remainder, random.Random(round_.seed))
        stored = [
            list(table.seats.order_by("position").values_list("person_id", flat=True))
            for table in round_.tables.order_by("number")
        ]
        assert [list(p) for _n, p in seating.numbered()] == stored


def test_people_and_sign_ins_have_their_history_rows(tiny):
    assert Person.history.filter(history_type="+").count() == Person.objects.count()
    assert SignIn.history.filter(history_type="+").count() == SignIn.objects.count()


# ---------------------------------------------------------------------------------------
# Refusals


def test_refuses_a_database_with_games_unless_append(tiny):
    games = Game.objects.count()
    with pytest.raises(CommandError, match="already has games.*--append"):
        generate("--seed", "6")
    assert Game.objects.count() == games
    generate("--seed", "6", "--append")
    assert Game.objects.count() > games
    assert Person.objects.count() == 48
    numbers = list(Person.objects.members().values_list("membership_number", flat=True))
    assert len(numbers) == len(set(numbers))


@pytest.mark.django_db
def test_refuses_production_mode_unless_forced():
    with override_settings(PRODUCTION=True), pytest.raises(CommandError, match="production"):
        generate()
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_refuses_options_it_cannot_play():
    with pytest.raises(CommandError, match="tables-min"):
        call_command("generate_league", "--tables-min", "5", "--tables-max", "2", "--quiet")
    with pytest.raises(CommandError, match="date"):
        call_command("generate_league", "--start", "soon", "--quiet")


@pytest.mark.django_db
def test_progress_is_printed_per_year():
    from io import StringIO

    out = StringIO()
    call_command("generate_league", *TINY[:-1], "--years", "2", "--people", "16", stdout=out)
    text = out.getvalue()
    assert "Year 1/2 (from 2021-01-01)" in text
    assert "Year 2/2 (from 2022-01-01)" in text
    assert "Generated: 16 people" in text


# ---------------------------------------------------------------------------------------
# Pure helpers


def test_club_dates_are_tuesdays_and_thursdays_in_the_year():
    import random

    dates = club_dates(random.Random(1), datetime.date(2021, 1, 1), 100)
    assert len(dates) == len(set(dates)) == 100
    assert dates == sorted(dates)
    assert {d.weekday() for d in dates} == {1, 3}
    assert all(d.year == 2021 for d in dates)
    more = club_dates(random.Random(1), datetime.date(2021, 1, 1), 150)
    assert len(more) == 150 and 5 in {d.weekday() for d in more}


def test_weighted_sample_is_distinct_and_repeatable():
    import random

    items = list(range(50))
    weights = [1 + i for i in items]
    a = weighted_sample(random.Random(2), items, weights, 20)
    b = weighted_sample(random.Random(2), items, weights, 20)
    assert a == b and len(set(a)) == 20


def test_a_second_club_with_the_same_seed_gets_codes_and_links_of_its_own(tiny):
    """Room codes and table links are unique across the site: a second club's league
    drawn from the same seed draws the same ones first, and takes others."""
    from members.clubs.scope import scopes_disabled
    from members.clubs.services import create_club

    other = create_club("second", "Second club")
    call_command("generate_league", *TINY, "--seed", "5", "--club", other.slug)
    with scopes_disabled():
        tables = Table.objects.all()
        assert tables.filter(club=other).exists()
        assert tables.values("token").distinct().count() == tables.count()
        assert tables.values("room_code").distinct().count() == tables.count()

"""Seating: properties of the draw (hypothesis), then rounds, moves and swaps."""

import random

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

import members.draw
from members.draw import SIT_OUT, THREES, SeatingImpossible, describe, table_sizes
from members.models import Round, Seat, SignIn, Table
from members.services.days import close_day
from members.services.door import undo_sign_in
from members.services.errors import SeatingRefused, SignInRefused
from members.services.seating import draw_round, move_seat, not_seated, start_round, swap_seats
from members.tests.factories import MemberFactory, SignInFactory

# ----------------------------------------------------------------------------- pure draw

people_lists = st.lists(st.integers(min_value=1, max_value=10_000), unique=True, max_size=80)


@given(people=people_lists, seed=st.integers(min_value=0, max_value=2**32))
def test_sit_out_draw_seats_everyone_once_at_tables_of_four(people, seed):
    draw = members.draw.draw(people, SIT_OUT, random.Random(seed))
    seated = [p for table in draw.tables for p in table]
    assert sorted(seated + draw.sitting_out) == sorted(people)  # everyone exactly once
    assert all(len(table) == 4 for table in draw.tables)
    assert len(draw.sitting_out) == len(people) % 4
    assert [n for n, _ in draw.numbered()] == list(range(1, len(draw.tables) + 1))


@given(people=people_lists, seed=st.integers(min_value=0, max_value=2**32))
def test_three_player_draw_seats_everyone_or_explains(people, seed):
    try:
        draw = members.draw.draw(people, THREES, random.Random(seed))
    except SeatingImpossible as refusal:
        assert len(people) in (1, 2, 5)
        assert "sit out" in str(refusal)
        return
    seated = [p for table in draw.tables for p in table]
    assert sorted(seated) == sorted(people) and draw.sitting_out == []
    assert all(len(table) in (3, 4) for table in draw.tables)
    assert sum(1 for table in draw.tables if len(table) == 3) <= 3
    # tables of four first, then the tables of three
    assert draw.sizes == sorted(draw.sizes, reverse=True)


@given(
    people=people_lists,
    seed=st.integers(min_value=0, max_value=2**32),
    data=st.data(),
)
def test_people_who_sat_out_last_time_are_spared_when_possible(people, seed, data):
    avoid = data.draw(st.sets(st.sampled_from(people)) if people else st.just(set()))
    draw = members.draw.draw(people, SIT_OUT, random.Random(seed), avoid_sitting_out=avoid)
    others = len(people) - len(avoid)
    if others >= len(draw.sitting_out):
        assert not set(draw.sitting_out) & avoid


def test_same_seed_same_draw():
    people = list(range(1, 18))
    one = members.draw.draw(people, THREES, random.Random(7))
    two = members.draw.draw(people, THREES, random.Random(7))
    assert one == two


@pytest.mark.parametrize(
    ("count", "sizes"),
    [
        (0, []),
        (3, [3]),
        (4, [4]),
        (6, [3, 3]),
        (7, [4, 3]),
        (8, [4, 4]),
        (9, [3, 3, 3]),
        (10, [4, 3, 3]),
        (11, [4, 4, 3]),
        (13, [4, 3, 3, 3]),
    ],
)
def test_three_player_table_sizes(count, sizes):
    assert table_sizes(count, THREES) == (sizes, 0)


@pytest.mark.parametrize("count", [1, 2, 5])
def test_three_player_tables_impossible(count):
    with pytest.raises(SeatingImpossible):
        table_sizes(count, THREES)
    assert "cannot be seated" in describe(count, THREES)


def test_describe():
    assert describe(17, SIT_OUT) == "4 tables of four; 1 person sits out."
    assert describe(17, THREES) == "2 tables of four and 3 tables of three."
    assert describe(6, SIT_OUT) == "1 table of four; 2 people sit out."


def test_a_person_listed_twice_is_refused():
    with pytest.raises(SeatingImpossible):
        members.draw.draw([1, 1, 2, 3], SIT_OUT, random.Random(1))


# ----------------------------------------------------------------------------- services


@pytest.fixture
def signed_in(day):
    def make(count):
        return [SignInFactory(day=day).person for _ in range(count)]

    return make


def test_draw_round_seats_everyone_signed_in_once(day, signed_in):
    people = signed_in(11)
    result = draw_round(day, THREES, seed=3)
    round_ = result.round
    assert round_.number == 1 and round_.remainder == "threes" and round_.seed == 3
    seats = Seat.objects.filter(round=round_)
    assert sorted(s.person_id for s in seats) == sorted(p.pk for p in people)
    sizes = sorted(t.seats.count() for t in round_.tables.all())
    assert sizes == [3, 4, 4]
    assert list(round_.tables.values_list("number", flat=True)) == [1, 2, 3]
    assert all(t.room_code and t.token for t in round_.tables.all())


def test_draw_with_sit_out_lists_who_sits_out(day, signed_in):
    signed_in(6)
    result = draw_round(day, SIT_OUT, seed=1)
    assert len(result.sitting_out) == 2
    assert Seat.objects.count() == 4
    assert set(not_seated(result.round, day)) == set(result.sitting_out)


def test_redraw_replaces_the_round_until_play_starts(day, signed_in):
    signed_in(8)
    first = draw_round(day, SIT_OUT, seed=1).round
    again = draw_round(day, SIT_OUT, seed=2)
    assert again.redrawn and again.round.pk == first.pk
    assert Table.objects.count() == 2 and Seat.objects.count() == 8
    start_round(first)
    nxt = draw_round(day, SIT_OUT, seed=3)
    assert not nxt.redrawn and nxt.round.number == 2
    assert Seat.objects.filter(round=first).count() == 8  # round 1 kept as it was


def test_who_sat_out_is_spared_next_round(day, signed_in):
    signed_in(5)
    one = draw_round(day, SIT_OUT, seed=11)
    start_round(one.round)
    two = draw_round(day, SIT_OUT, seed=11)
    assert one.sitting_out != two.sitting_out


def test_draw_refusals(day, signed_in):
    with pytest.raises(SeatingRefused, match="Nobody is signed in"):
        draw_round(day, THREES)
    signed_in(5)
    with pytest.raises(SeatingRefused, match="cannot be seated"):
        draw_round(day, THREES)
    assert not Round.objects.exists()
    close_day(day)
    with pytest.raises(SeatingRefused, match="closed"):
        draw_round(day, SIT_OUT)


def test_move_a_person_to_another_table_and_sit_out(day, signed_in):
    signed_in(8)
    round_ = draw_round(day, SIT_OUT, seed=5).round
    seat = Seat.objects.get(table__number=1, position=1)
    person = seat.person
    with pytest.raises(SeatingRefused, match="taken by"):
        move_seat(round_, person, 2, 1)
    text = move_seat(round_, person, 2)
    assert text == f"{person.full_name} moved to table 2, seat 5."
    assert Seat.objects.get(round=round_, person=person).table.number == 2
    move_seat(round_, person, None)
    assert not Seat.objects.filter(person=person).exists()
    move_seat(round_, person, 3, 1)  # a new table
    assert Table.objects.get(round=round_, number=3).seats.get().person == person


def test_emptied_table_is_removed(day, signed_in):
    signed_in(4)
    round_ = draw_round(day, SIT_OUT, seed=5).round
    people = [s.person for s in Seat.objects.filter(round=round_)]
    move_seat(round_, people[0], 2, 1)
    for person in people[1:]:
        move_seat(round_, person, 2)
    assert list(round_.tables.values_list("number", flat=True)) == [2]


def test_swap_two_people_and_a_sitting_out_person(day, signed_in):
    signed_in(9)
    round_ = draw_round(day, SIT_OUT, seed=5).round
    a = Seat.objects.get(table__number=1, position=2)
    b = Seat.objects.get(table__number=2, position=3)
    swap_seats(round_, a.person, b.person)
    assert Seat.objects.get(person=a.person).table.number == 2
    assert Seat.objects.get(person=b.person).position == 2
    out = not_seated(round_, day)[0]
    text = swap_seats(round_, out, a.person)
    assert f"{a.person.full_name} is sitting out" in text
    assert Seat.objects.get(person=out).table.number == 2
    assert not Seat.objects.filter(person=a.person).exists()


def test_seats_cannot_move_once_play_started(day, signed_in):
    signed_in(8)
    round_ = draw_round(day, SIT_OUT, seed=5).round
    start_round(round_)
    seats = list(Seat.objects.filter(round=round_))
    with pytest.raises(SeatingRefused, match="Play has started"):
        move_seat(round_, seats[0].person, 2)
    with pytest.raises(SeatingRefused, match="Play has started"):
        swap_seats(round_, seats[0].person, seats[5].person)


def test_only_people_signed_in_can_be_seated(day, signed_in):
    signed_in(4)
    round_ = draw_round(day, SIT_OUT, seed=5).round
    stranger = MemberFactory()
    with pytest.raises(SeatingRefused, match="not signed in"):
        move_seat(round_, stranger, 1)


def test_undo_sign_in_takes_them_off_an_unstarted_table(day, signed_in):
    signed_in(4)
    draw_round(day, SIT_OUT, seed=5)
    record = SignIn.objects.first()
    assert "taken off their table" in undo_sign_in(record)
    assert Seat.objects.count() == 3


def test_undo_sign_in_refused_once_playing(day, signed_in):
    signed_in(4)
    round_ = draw_round(day, SIT_OUT, seed=5).round
    start_round(round_)
    with pytest.raises(SignInRefused, match="has started"):
        undo_sign_in(SignIn.objects.first())


# ----------------------------------------------------------------------------- pages


def test_seating_page_draw_move_swap_start(officer_client, day, signed_in):
    signed_in(7)
    url = reverse("members:seating", args=[day.pk])
    page = officer_client.get(url).content.decode()
    assert "With 7: 1 table of four and 1 table of three." in page
    assert "With 7: 1 table of four; 3 people sit out." in page

    response = officer_client.post(
        reverse("members:seating_draw", args=[day.pk]), {"remainder": "threes"}, follow=True
    )
    page = response.content.decode()
    assert "Round 1 drawn: 2 tables." in page and "Table 2" in page
    seat = Seat.objects.get(table__number=1, position=1)
    other = Seat.objects.get(table__number=2, position=1)

    response = officer_client.post(
        reverse("members:seating_swap", args=[day.pk]),
        {"round": 1, "first": seat.person_id, "second": other.person_id},
        follow=True,
    )
    assert "Swapped" in response.content.decode()
    response = officer_client.post(
        reverse("members:seating_move", args=[day.pk]),
        {"round": 1, "person": seat.person_id, "table": "out", "position": ""},
        follow=True,
    )
    assert "sitting out this round" in response.content.decode()
    assert "Not at a table this round (1)" in response.content.decode()

    response = officer_client.post(
        reverse("members:seating_start", args=[day.pk]), {"round": 1}, follow=True
    )
    assert "Round 1 has started" in response.content.decode()
    response = officer_client.post(
        reverse("members:seating_move", args=[day.pk]),
        {"round": 1, "person": seat.person_id, "table": "1"},
        follow=True,
    )
    assert "Play has started" in response.content.decode()


def test_seating_page_refusals_are_messages(officer_client, day, signed_in):
    signed_in(5)
    response = officer_client.post(
        reverse("members:seating_draw", args=[day.pk]), {"remainder": "threes"}, follow=True
    )
    assert "cannot be seated" in response.content.decode()
    response = officer_client.post(
        reverse("members:seating_draw", args=[day.pk]), {"remainder": "bogus"}, follow=True
    )
    assert "Choose what to do" in response.content.decode()
    url = reverse("members:seating_move", args=[day.pk])
    assert officer_client.post(url, {"round": "x"}).status_code == 404
    assert (
        officer_client.get(reverse("members:seating", args=[day.pk]), {"round": 9}).status_code
        == 404
    )


def test_display_lists_tables_in_big_type(officer_client, day, signed_in):
    people = signed_in(4)
    draw_round(day, SIT_OUT, seed=1)
    page = officer_client.get(reverse("members:seating_display", args=[day.pk])).content.decode()
    assert 'class="display-number">1<' in page
    assert all(p.full_name in page for p in people)
    assert 'hx-trigger="every 30s"' in page  # refreshes itself without a meta refresh


# ----------------------------------------------------------------------------- guests, seats


@given(
    people=st.lists(st.integers(min_value=1, max_value=10_000), unique=True, min_size=6),
    guests=st.integers(min_value=0, max_value=12),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_guests_are_spread_over_the_tables(people, guests, seed):
    chosen = set(people[:guests])
    try:
        result = members.draw.draw(people, THREES, random.Random(seed), spread=chosen)
    except SeatingImpossible:
        return
    counts = [sum(1 for p in table if p in chosen) for table in result.tables]
    assert max(counts) - min(counts) <= 1
    assert sorted(p for table in result.tables for p in table) == sorted(people)
    assert result.sizes == members.draw.draw(people, THREES, random.Random(seed)).sizes


def test_without_spreading_two_guests_may_share_a_table():
    """The draw alone puts both guests at one table for some seeds: the option is
    what keeps them apart."""
    people, guests = list(range(1, 9)), {1, 2}

    def together(**kw):
        return [
            seed
            for seed in range(60)
            if any(
                guests <= set(t)
                for t in members.draw.draw(people, THREES, random.Random(seed), **kw).tables
            )
        ]

    assert together()
    assert not together(spread=guests)


def test_the_seating_page_spreads_guests_by_default(officer_client, day, signed_in):
    from members.tests.factories import GuestFactory

    signed_in(6)
    guests = [GuestFactory() for _ in range(2)]
    for guest in guests:
        SignInFactory(day=day, person=guest)
    page = officer_client.get(reverse("members:seating", args=[day.pk])).content.decode()
    assert 'name="spread_guests" id="id_spread_guests" checked' in page
    for _ in range(8):  # drawn again and again: never both guests at one table
        officer_client.post(
            reverse("members:seating_draw", args=[day.pk]),
            {"remainder": "threes", "spread_guests": "on"},
        )
        tables = {s.table_id for s in Seat.objects.filter(person__in=guests)}
        assert len(tables) == 2


def test_the_seat_list_offers_seats_one_to_four_at_tables_of_four_and_three(
    officer_client, day, signed_in
):
    signed_in(7)
    draw_round(day, THREES, seed=1)
    page = officer_client.get(reverse("members:seating", args=[day.pk])).content.decode()
    assert ">Seat 4</option>" in page
    assert ">Seat 5</option>" not in page and ">Seat 6</option>" not in page

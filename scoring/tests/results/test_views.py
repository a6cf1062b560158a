"""The results pages: who sees what (one test per boundary), filters and their errors,
sorting, CSV downloads, seasons, the standings settings and the workbook download."""

import csv
import datetime
import io

import pytest
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook

from members.models import Person
from members.tests.factories import ClubDayFactory, MemberFactory, TableFactory
from scoring.models import ClubSettings, Season
from scoring.results import ratings
from scoring.tests import games
from scoring.tests.results.conftest import DAY1, DAY2

pytestmark = pytest.mark.django_db

PUBLIC_PAGES = [
    "scoring:standings",
    "scoring:partnerships",
    "scoring:day_results",
    "scoring:records",
]
OFFICER_PAGES = [
    "scoring:seasons",
    "scoring:season_new",
    "scoring:standings_settings",
    "scoring:league_workbook",
]


def public(on=True):
    club = ClubSettings.load()
    club.public_standings = on
    club.save()


def text(response):
    return response.content.decode()


def read_csv(response):
    body = response.content.decode("utf-8-sig")
    return list(csv.reader(io.StringIO(body)))


# -- who sees what


@pytest.mark.parametrize("name", PUBLIC_PAGES)
def test_visitors_are_sent_to_log_in_when_standings_are_not_public(outsider_client, name):
    response = outsider_client.get(reverse(name))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize("name", PUBLIC_PAGES)
def test_visitors_see_public_standings_without_links_to_players(small_club, outsider_client, name):
    public()
    response = outsider_client.get(reverse(name))
    assert response.status_code == 200
    assert "/players/" not in text(response)


def test_visitors_see_a_public_day_without_links_to_players(small_club, outsider_client):
    public()
    response = outsider_client.get(reverse("scoring:day_result", args=[small_club["day1"].pk]))
    assert response.status_code == 200
    assert "Ann Able" in text(response) and "/players/" not in text(response)


def test_visitors_never_see_a_players_page(small_club, outsider_client):
    public()
    url = reverse("scoring:player", args=[small_club["A"].pk])
    response = outsider_client.get(url)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize("name", OFFICER_PAGES)
def test_visitors_are_sent_to_log_in_for_officer_pages(outsider_client, name):
    response = outsider_client.get(reverse(name))
    assert response.status_code == 302


@pytest.mark.parametrize("name", OFFICER_PAGES)
def test_members_may_not_use_officer_pages(member_client, name):
    assert member_client.get(reverse(name)).status_code == 403


@pytest.mark.parametrize("name", OFFICER_PAGES)
def test_officers_use_officer_pages(small_club, officer_client, name):
    assert officer_client.get(reverse(name)).status_code == 200


def test_a_member_sees_the_standings_with_links(small_club, member_client):
    response = member_client.get(reverse("scoring:standings"))
    assert response.status_code == 200
    assert reverse("scoring:player", args=[small_club["A"].pk]) in text(response)
    assert "league_workbook" not in text(response) and "league.xlsx" not in text(response)


def test_a_member_sees_their_own_page_without_contact_details_of_anyone(
    small_club, member_client, member_person
):
    me = member_person
    a, c, d = small_club["A"], small_club["C"], small_club["D"]
    tbl = TableFactory(
        round__day=small_club["day2"], round__number=2, number=2, seated=[me, a, c, d]
    )
    games.win(tbl, [me, a], [c, d])
    Person.objects.filter(pk=a.pk).update(
        email="ann.secret@example.org", phone="555-9999", notes="Owes dues"
    )
    response = member_client.get(reverse("scoring:player", args=[me.pk]))
    assert response.status_code == 200
    page = text(response)
    assert "This is your page" in page
    for secret in ("ann.secret@example.org", "555-9999", "Owes dues", me.email, me.phone):
        assert secret not in page
    assert "Ann Able" in page  # the partner, by name only


def test_a_member_sees_another_players_game_record_but_no_contact_details(
    small_club, member_client
):
    a = small_club["A"]
    Person.objects.filter(pk=a.pk).update(
        email="ann.secret@example.org", phone="555-9999", notes="Owes dues"
    )
    response = member_client.get(reverse("scoring:player", args=[a.pk]))
    assert response.status_code == 200
    page = text(response)
    assert "This is your page" not in page
    assert "Game scores over time" in page and "<svg" in page
    for secret in ("ann.secret@example.org", "555-9999", "Owes dues", a.membership_number):
        assert secret not in page


def test_a_merged_record_redirects_to_the_kept_one(small_club, member_client):
    old = MemberFactory(first_name="Ann", last_name="Old")
    old.merged_into = small_club["A"]
    old.save()
    response = member_client.get(reverse("scoring:player", args=[old.pk]))
    assert response.status_code == 302
    assert response["Location"] == reverse("scoring:player", args=[small_club["A"].pk])
    assert member_client.get(reverse("scoring:player", args=[99999])).status_code == 404


def test_the_officer_sees_the_workbook_button(small_club, officer_client):
    page = text(officer_client.get(reverse("scoring:standings")))
    assert reverse("scoring:league_workbook") in page


# -- the standings page


def test_standings_page_shows_the_season_ranked(small_club, member_client):
    Season.objects.create(
        name="2025", start=datetime.date(2025, 1, 1), end=datetime.date(2025, 12, 31)
    )
    club = ClubSettings.load()
    club.min_games_to_rank = 2
    club.save()
    response = member_client.get(reverse("scoring:standings"))
    page = text(response)
    assert "2025 (1 Jan 2025 – 31 Dec 2025)" in page
    ranked = [r["name"] for r in response.context["table"].data]
    assert ranked == ["Bob Baker", "Ann Able", "Dan Dale", "Cat Cole"]
    assert [r["name"] for r in response.context["unranked"].data] == ["Eve Early"]
    assert "Not ranked yet: fewer than" in page
    assert "About the rating" in page and ratings.HOW in page and "OpenSkill" not in page
    assert "11,850" not in page  # Ann's points for: not a main column
    assert "More columns: Lost, Points for" in page
    page = text(member_client.get(reverse("scoring:standings") + "?columns=all"))
    assert "11,850" in page  # formatted


def test_sorting_by_a_computed_column(small_club, member_client):
    ClubSettings.objects.update_or_create(pk=1, defaults={"min_games_to_rank": 1})
    url = reverse("scoring:standings") + "?season=all"
    response = member_client.get(url + "&sort=-points_for")
    assert [r["name"] for r in response.context["table"].paginated_rows.data][:2] == [
        "Bob Baker",
        "Ann Able",
    ]
    response = member_client.get(url + "&sort=average")
    assert [r.record["name"] for r in response.context["table"].paginated_rows][0] == "Cat Cole"
    assert 'aria-sort="ascending"' in text(response)
    response = member_client.get(url + "&sort=name")
    assert [r.record["name"] for r in response.context["table"].paginated_rows][0] == "Ann Able"


def test_guests_filtered_out(small_club, member_client):
    ClubSettings.objects.update_or_create(pk=1, defaults={"min_games_to_rank": 1})
    response = member_client.get(reverse("scoring:standings") + "?guests=hide")
    assert "Eve Early" not in text(response)
    assert "guests hidden" in text(response)
    response = member_client.get(reverse("scoring:standings"))
    assert "Eve Early" in text(response)


def test_own_dates(small_club, member_client):
    response = member_client.get(reverse("scoring:standings") + f"?start={DAY2}&end={DAY2}")
    assert response.status_code == 200
    assert {r["name"] for r in response.context["result"].rows} == {
        "Ann Able",
        "Bob Baker",
        "Cat Cole",
        "Eve Early",
    }


@pytest.mark.parametrize(
    "query, message",
    [
        ("start=2025-02-30", "That is not a date"),
        ("start=soon", "type it as 2025-03-31"),
        ("start=2025-03-10&end=2025-03-01", "The end date is before the start date"),
        ("season=all&start=2025-03-10", "Choose a season or your own dates, not both"),
        ("season=424242", "Select a valid choice."),
        ("guests=maybe", "Select a valid choice."),
    ],
)
def test_bad_filters_say_what_to_fix(small_club, member_client, query, message):
    for name in ("scoring:standings", "scoring:partnerships", "scoring:day_results"):
        if name == "scoring:day_results" and query.startswith("guests"):
            continue
        response = member_client.get(reverse(name) + "?" + query)
        assert response.status_code == 400, name
        assert message in text(response), name


def test_partnerships_page(small_club, member_client):
    ClubSettings.objects.update_or_create(pk=1, defaults={"min_games_to_rank": 1})
    response = member_client.get(reverse("scoring:partnerships"))
    assert response.status_code == 200
    names = [r["name"] for r in response.context["table"].data]
    assert names[0] == "Bob Baker & Dan Dale"
    assert len(names) == 6
    assert 'aria-current="page">Partnerships' in text(response)


def test_standings_csv(small_club, member_client):
    ClubSettings.objects.update_or_create(pk=1, defaults={"min_games_to_rank": 2})
    response = member_client.get(reverse("scoring:standings") + "?_export=csv&guests=show")
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    header, *rows = read_csv(response)
    assert header[:4] == ["Rank", "Player", "Games", "Won"]
    assert [r[1] for r in rows] == [
        "Bob Baker",
        "Ann Able",
        "Dan Dale",
        "Cat Cole",
        "Eve Early (guest)",
    ]
    ann = dict(zip(header, rows[1], strict=True))
    assert (ann["Rank"], ann["Points for"], ann["Difference"], ann["Win %"]) == (
        "2",
        "11850",
        "4350",
        "66.7",
    )
    assert rows[-1][0] == ""  # not yet ranked


def test_partnerships_csv(small_club, member_client):
    response = member_client.get(reverse("scoring:partnerships") + "?_export=csv")
    header, *rows = read_csv(response)
    assert header[1] == "Partners" and len(rows) == 6


# -- day results and records


def test_day_results_list_and_csv(small_club, member_client):
    response = member_client.get(reverse("scoring:day_results"))
    page = text(response)
    assert reverse("scoring:day_result", args=[small_club["day1"].pk]) in page
    header, *rows = read_csv(member_client.get(reverse("scoring:day_results") + "?_export=csv"))
    assert header == ["Date", "Day", "Games", "Players", "Top score"]
    assert rows == [
        ["2025-03-13", "Thursday", "1", "4", "5700"],
        ["2025-03-06", "Thursday", "2", "4", "6600"],
    ]


def test_day_result_page_with_top_six(small_club, member_client):
    url = reverse("scoring:day_result", args=[small_club["day1"].pk])
    response = member_client.get(url)
    page = text(response)
    assert "Top scores of the day" in page and "6,600" in page
    top = response.context["top"]
    assert [r["score"] for r in top.data] == [6600, 5700, 450, 450]
    header, *rows = read_csv(member_client.get(url + "?_export=csv&table=top"))
    assert header == ["Rank", "Players", "Score", "Table", "Game"]
    assert rows[0] == ["1", "Bob Baker & Dan Dale", "6600", "1", "2"]
    header, *rows = read_csv(member_client.get(url + "?_export=csv"))
    assert header[3] == "Winners" and len(rows) == 2
    assert member_client.get(reverse("scoring:day_result", args=[9999])).status_code == 404


def test_records_page_and_csv(small_club, member_client):
    response = member_client.get(reverse("scoring:records"))
    page = text(response)
    for title in (
        "Highest hand",
        "Highest game",
        "Most canastas in a game",
        "Four red threes in a hand",
        "Longest winning streak",
        "Most games in a season",
    ):
        assert title in page
    assert "2,800" in page
    header, *rows = read_csv(
        member_client.get(reverse("scoring:records") + "?_export=csv&table=streaks")
    )
    assert header == ["Rank", "Player", "Wins in a row", "From", "To"]
    assert rows[0] == ["1", "Bob Baker", "2", "2025-03-06", "2025-03-06"]
    header, *rows = read_csv(
        member_client.get(reverse("scoring:records") + "?_export=csv&table=four_red_threes")
    )
    assert rows[0][1] == "Bob Baker & Dan Dale"
    bad = member_client.get(reverse("scoring:records") + "?_export=csv&table=nope")
    assert bad.status_code == 404


def test_player_page_content_and_csv(small_club, member_client):
    b_person = small_club["B"]
    url = reverse("scoring:player", args=[b_person.pk])
    response = member_client.get(url)
    page = text(response)
    assert page.count("<svg") == 2  # game scores and rating
    assert response.context["totals"]["games"] == 3
    assert response.context["bests"]["best_hand"]["value"] == 2800
    assert "Longest winning streak" in page
    header, *rows = read_csv(member_client.get(url + "?_export=csv"))
    assert header[:6] == ["Date", "Table", "Game", "Partner", "Opponents", "Result"]
    assert [r[5] for r in rows] == ["Lost", "Won", "Won"]  # newest first
    assert rows[0][3] == "Cat Cole"
    header, *rows = read_csv(member_client.get(url + "?_export=csv&table=partners"))
    assert header[0] == "Partner" and len(rows) == 3
    header, *rows = read_csv(member_client.get(url + "?_export=csv&table=opponents"))
    assert header[0] == "Opponent" and len(rows) == 4


def test_player_downloads_follow_the_sort_of_their_own_table(small_club, member_client):
    url = reverse("scoring:player", args=[small_club["B"].pk])
    for table, prefix in (("partners", "p-"), ("opponents", "o-")):
        column = "partner" if table == "partners" else "name"
        _h, *up = read_csv(member_client.get(f"{url}?_export=csv&table={table}"))
        _h, *down = read_csv(
            member_client.get(f"{url}?_export=csv&table={table}&{prefix}sort=-{column}")
        )
        assert [r[0] for r in down] == [r[0] for r in reversed(up)], table
        # The games table's own sort parameter leaves this table alone.
        _h, *other = read_csv(member_client.get(f"{url}?_export=csv&table={table}&sort=-{column}"))
        assert other == up, table


def test_csv_cells_never_run_as_formulas(db, member_client):
    a = MemberFactory(first_name="=HYPERLINK(1)", last_name="X")
    c, d, e = games.people(3)
    day = ClubDayFactory(date=DAY1)
    games.win(TableFactory(round__day=day, seated=[a, c, d, e]), [a, d], [c, e])
    ClubSettings.objects.update_or_create(pk=1, defaults={"min_games_to_rank": 0})
    header, *rows = read_csv(member_client.get(reverse("scoring:standings") + "?_export=csv"))
    assert "'=HYPERLINK(1) X" in [r[1] for r in rows]


# -- officers: seasons, settings, workbook


def test_add_and_edit_a_season(db, officer_client):
    response = officer_client.post(
        reverse("scoring:season_new"),
        {"name": " Spring  2025 ", "start": "2025-03-01", "end": "2025-05-31"},
    )
    assert response.status_code == 302
    season = Season.objects.get()
    assert season.name == "Spring 2025"
    response = officer_client.post(
        reverse("scoring:season_new"),
        {"name": "2025", "start": "2025-01-01", "end": "2025-12-31"},
        follow=True,
    )
    assert "overlaps “Spring 2025”" in text(response)
    response = officer_client.post(
        reverse("scoring:season_edit", args=[season.pk]),
        {"name": "Spring 2025", "start": "2025-03-01", "end": "2025-02-01"},
    )
    assert response.status_code == 200
    assert "The season ends before it starts" in text(response)
    response = officer_client.post(
        reverse("scoring:season_new"),
        {"name": "spring 2025", "start": "2024-01-01", "end": "2024-02-01"},
    )
    assert "There is already a season called" in text(response)
    response = officer_client.post(
        reverse("scoring:season_new"), {"name": "Bad", "start": "2024-02-31", "end": ""}
    )
    assert response.status_code == 200 and "Enter a valid date." in text(response)
    seasons = officer_client.get(reverse("scoring:seasons"))
    assert "Spring 2025" in text(seasons)


def test_standings_settings(small_club, officer_client, member_person):
    url = reverse("scoring:standings_settings")
    response = officer_client.get(url)
    assert response.context["form"]["measure_1"].value() == "win_pct"
    response = officer_client.post(
        url,
        {
            "measure_1": "wins",
            "measure_2": "rating",
            "measure_3": "",
            "measure_4": "",
            "min_games_to_rank": "3",
            "public_standings": "on",
        },
    )
    assert response.status_code == 302
    club = ClubSettings.load()
    assert (club.ranking_measures, club.min_games_to_rank, club.public_standings) == (
        ["wins", "rating"],
        3,
        True,
    )
    page = text(officer_client.get(reverse("scoring:standings")))
    assert "Ranked by Wins, then Rating" in page
    response = officer_client.post(
        url, {"measure_1": "wins", "measure_2": "", "measure_3": "wins", "min_games_to_rank": "-1"}
    )
    page = text(response)
    assert "without a gap" in page and "already chosen above" in page
    assert "greater than or equal to 0" in page
    member = Client()
    member.force_login(member_person.user)
    assert member.post(url, {"measure_1": "wins"}).status_code == 403


def test_workbook_download(small_club, officer_client):
    response = officer_client.get(reverse("scoring:league_workbook") + "?season=all")
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="league-all-games.xlsx"'
    wb = load_workbook(io.BytesIO(b"".join(response.streaming_content)))
    assert wb.sheetnames == ["Summary", "Standings", "Games", "Hands", "Attendance", "Members"]
    assert wb["Games"].max_row == 4
    response = officer_client.get(
        reverse("scoring:league_workbook") + "?start=nonsense", follow=True
    )
    assert "The workbook could not be made" in text(response)


def _tables_of_the_site(cls=None) -> list:
    import django_tables2

    import scoring.results.tables  # noqa: F401  (every table module is imported)
    from scoring.results.tables import days, player, records, seasons, standings  # noqa: F401

    found = []
    for sub in (cls or django_tables2.Table).__subclasses__():
        if sub.__module__.startswith("scoring."):
            found.append(sub)
        found += _tables_of_the_site(sub)
    return found


@pytest.mark.django_db(False)
def test_no_column_asks_for_localize_which_the_table_template_leaves_out():
    """``results/table.html`` draws each cell as it is, without django-tables2's check of
    the column's ``localize`` per cell: no column of the site may need it."""
    tables = _tables_of_the_site()
    assert len(tables) >= 8
    for table in tables:
        for name, column in table.base_columns.items():
            assert column.localize is None, f"{table.__name__}.{name} sets localize"

"""The small things of issue 12 that cost taps: penalties show their points, a
correction returns to the table, the table cards list who sits where, `load_demo`
prints the link with the real host and port, "Close this day" asks first and lists the
games still in play; and the table page is installable (manifest, service worker)."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from members.models import ClubDay
from scoring.play.services.hands import record_hand
from scoring.tests.play.conftest import quick_post
from scoring.tests.samples import BIG, SMALL


def table_url(game):
    return reverse("scoring:table", args=[game.table_id])


def test_each_penalty_says_what_it_costs(link_client, game):
    html = link_client.get(table_url(game)).content.decode()
    assert "Asked to go out, then did not (−100 each)" in html
    assert "Took the top discard, did not use it (−50 each)" in html
    assert "Red three kept in hand (−500 each)" in html


def test_the_page_is_a_score_pad_with_a_bar_and_stays_small(link_client, game):
    for number in range(1, 13):
        record_hand(game, [SMALL, SMALL], number=number)
    page = link_client.get(table_url(game))
    html = page.content.decode()
    assert html.count('role="group" aria-labelledby="entry-team-') == 2
    assert 'class="hand-bar"' in html and "Save hand 13" in html
    assert "js/table.js" in html and 'rel="manifest"' in html
    assert len(page.content) < 25_000  # card by card is fetched when chosen
    assert 'id="detail-team-0" data-side="0"' in html and "meld_a_naturals" not in html


def test_card_by_card_boxes_come_on_demand(link_client, game):
    url = reverse("scoring:hand_detail", args=[game.pk, 1])
    html = link_client.get(url).content.decode()
    assert 'id="detail-team-1"' in html and 'name="t1-meld_a_naturals"' in html
    assert link_client.get(reverse("scoring:hand_detail", args=[game.pk, 2])).status_code == 404


def test_card_by_card_boxes_are_for_those_who_enter_hands(client, game):
    url = reverse("scoring:hand_detail", args=[game.pk, 0])
    assert client.get(url).status_code == 404  # an outsider is not told the game exists


def test_a_correction_returns_to_the_table(officer_client, game):
    record_hand(game, [SMALL, SMALL], number=1)
    url = reverse("scoring:hand_edit", args=[game.pk, 1])
    response = officer_client.post(url, quick_post([BIG, SMALL], 1, version=1))
    assert response.status_code == 302
    assert response["Location"] == table_url(game) + "#hand-1"


def test_table_cards_list_who_sits_where(officer_client, game, django_assert_max_num_queries):
    url = reverse("scoring:table_cards", args=[game.day_id])
    officer_client.get(url)  # the login's first page: the menu asks once if it is a member's
    with django_assert_max_num_queries(12):
        html = officer_client.get(url).content.decode()
    assert "Who sits where" in html
    for position, name in enumerate(["Ann Able", "Bob Baker", "Cat Cole", "Dan Dunn"], 1):
        assert f'<span class="seat-no">Seat {position}</span> {name}' in html


def test_load_demo_prints_the_link_with_the_host_and_port_given(db):
    out = StringIO()
    call_command("load_demo", "--host", "127.0.0.1", "--port", "8123", stdout=out)
    assert "http://127.0.0.1:8123/t/" in out.getvalue()
    everywhere = StringIO()
    call_command("load_demo", "--host", "0.0.0.0", "--port", "9000", stdout=everywhere)
    assert ":9000/t/" in everywhere.getvalue() and "0.0.0.0" not in everywhere.getvalue()


# -- closing the day ---------------------------------------------------------------------


def test_close_this_day_asks_first_and_lists_games_in_play(officer_client, game):
    day_page = officer_client.get(reverse("members:day", args=[game.day_id])).content.decode()
    close_url = reverse("members:day_close", args=[game.day_id])
    assert f'href="{close_url}"' in day_page and 'value="close"' not in day_page
    page = officer_client.get(close_url).content.decode()
    assert "Still in play: 1 game" in page
    assert "Table 1, round 1: game 1, 0 hands played" in page
    assert "Close the day anyway" in page
    assert ClubDay.objects.get(pk=game.day_id).is_open  # asking closed nothing
    officer_client.post(reverse("members:day", args=[game.day_id]), {"action": "close"})
    assert not ClubDay.objects.get(pk=game.day_id).is_open


def test_close_confirmation_without_games_in_play(officer_client, day):
    page = officer_client.get(reverse("members:day_close", args=[day.pk])).content.decode()
    assert "No game is still in play." in page and "Yes, close this day" in page


def test_close_confirmation_is_for_officers_only(member_client, day):
    response = member_client.get(reverse("members:day_close", args=[day.pk]))
    assert response.status_code in (302, 403)
    assert ClubDay.objects.get(pk=day.pk).is_open


# -- installable -------------------------------------------------------------------------


def test_the_installed_app_opens_the_table_this_phone_opened_last(client, game):
    """One start address whatever table the app was installed from: it opens the table
    page this phone opened last (a link holder's, a player's), or the room-code box."""
    url = reverse("manifest")
    data = client.get(url, {"start": table_url(game)}).json()
    assert data["start_url"] == "/app/" == data["id"] and data["scope"] == "/"
    assert data["display"] == "standalone"
    assert {icon["sizes"] for icon in data["icons"]} >= {"192x192", "512x512"}
    response = client.get(data["start_url"])
    assert response.status_code == 302 and response["Location"] == reverse("home")
    client.get(reverse("scoring:table_link", args=[game.table.token]), follow=True)
    response = client.get(data["start_url"])
    assert response.status_code == 302 and response["Location"] == table_url(game)
    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]


def test_the_app_opens_the_last_table_a_logged_in_player_opened(officer_client, game):
    officer_client.get(table_url(game))
    response = officer_client.get("/app/")
    assert response.status_code == 302 and response["Location"] == table_url(game)


@pytest.mark.django_db  # the club the address is for
def test_the_service_worker_is_served_from_the_root_with_its_files(client):
    response = client.get(reverse("service_worker"))
    assert reverse("service_worker") == "/sw.js"
    assert response["Content-Type"].startswith("text/javascript")
    assert "Content-Security-Policy" in response
    assert response["Service-Worker-Allowed"] == "/"
    body = response.content.decode()
    assert "/* SHELL */" not in body and "/static/js/table.js" in body
    assert 'var ROOT = "/";' in body and 'var START = "/app/";' in body


@pytest.mark.django_db
def test_each_club_of_a_shared_site_has_its_own_worker_and_manifest(client, other_club):
    """Under /<slug>/ the worker, its scope, the app's start and the manifest are the
    club's: a phone that installed one club's table page is not another club's app."""
    response = client.get("/south/sw.js")
    assert response["Service-Worker-Allowed"] == "/south/"
    body = response.content.decode()
    assert 'var ROOT = "/south/";' in body and 'var START = "/south/app/";' in body
    manifest = client.get("/south/manifest.webmanifest").json()
    assert manifest["start_url"] == "/south/app/" and manifest["scope"] == "/south/"
    assert manifest["name"] == "South Club scores"

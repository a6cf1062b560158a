"""What the service worker may keep of a table page for a phone without a network
(issue 22): the server marks the page drawn for a table-link holder who is not logged
in (``X-Keep-Offline``: the grant and when its links end), and nothing else; logging
out and closing the day tell the browser to drop what it kept (``Clear-Site-Data``).
The worker's side is checked in Chromium (clubsite/tests/test_journey_offline.py)."""

import re

from django.urls import reverse

from members.clubs.pwa import CLEAR_SITE_DATA, KEEP_OFFLINE
from members.models import ClubDay
from members.services.days import close_day, links_end


def table_url(table):
    return reverse("scoring:table", args=[table.pk])


def test_the_table_page_of_a_link_holder_may_be_kept_for_its_grant(link_client, game):
    table = game.table
    response = link_client.get(table_url(table))
    assert response.status_code == 200
    until = int(links_end(table.round.day).timestamp() * 1000)
    assert response[KEEP_OFFLINE] == f"table={table.pk}; day={table.round.day_id}; until={until}"


def test_a_table_without_a_game_yet_may_be_kept_too(link_client, table):
    response = link_client.get(table_url(table))
    assert response.status_code == 200 and KEEP_OFFLINE in response


def test_a_page_drawn_for_an_officer_is_never_kept(officer_client, game):
    # Even on a device that also holds the table's link.
    assert officer_client.get(f"/t/{game.table.token}/").status_code == 302
    response = officer_client.get(table_url(game.table))
    assert response.status_code == 200 and "and history" in response.content.decode()
    assert KEEP_OFFLINE not in response


def test_a_page_drawn_for_a_logged_in_member_is_never_kept(member_client, game):
    assert member_client.get(f"/t/{game.table.token}/").status_code == 302
    response = member_client.get(table_url(game.table))
    assert response.status_code == 200
    assert KEEP_OFFLINE not in response


def test_no_page_no_copy(link_client, game, other_table):
    # The other table's page, for this link holder: not theirs (404), nothing kept.
    assert link_client.get(table_url(other_table)).status_code == 404
    assert KEEP_OFFLINE not in link_client.get(table_url(other_table))


def test_after_the_day_closed_the_page_says_so_and_is_not_kept(link_client, game):
    close_day(ClubDay.objects.get(pk=game.table.round.day_id))
    response = link_client.get(table_url(game.table))
    assert response.status_code == 410
    assert KEEP_OFFLINE not in response


def test_logging_out_drops_what_the_browser_kept(member_client):
    response = member_client.post(reverse("logout"))
    assert response.status_code == 302
    assert response["Clear-Site-Data"] == CLEAR_SITE_DATA == '"cache", "storage"'


def test_closing_the_day_drops_what_the_officers_browser_kept(officer_client, game):
    url = reverse("members:day", args=[game.table.round.day_id])
    response = officer_client.post(url, {"action": "close"})
    assert response.status_code == 302
    assert response["Clear-Site-Data"] == CLEAR_SITE_DATA
    assert "Clear-Site-Data" not in officer_client.post(url, {"action": "reopen"})
    assert "Clear-Site-Data" not in officer_client.get(url)


def test_the_worker_keeps_every_stylesheet_the_table_page_links(link_client, game):
    """Offline, the kept table page is drawn with the files the worker kept: every
    stylesheet the page links is among them (the confirmation panel's too)."""
    page = link_client.get(reverse("scoring:table", args=[game.table_id])).content.decode()
    worker = link_client.get(reverse("service_worker")).content.decode()
    sheets = set(re.findall(r'<link rel="stylesheet" href="([^"]+)"', page))
    assert sheets and all(f'"{href}"' in worker for href in sheets), sheets

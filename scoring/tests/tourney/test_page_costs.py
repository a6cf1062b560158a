"""What the event's pages cost: the officer's page, the ranking, the prize list and a
ladder read a few queries that do not grow with rounds, games or people."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.urls import reverse

from scoring.tests.tourney.conftest import START, key, play_round
from scoring.tourney.services.rounds import end_current_round, start_next_round

pytestmark = pytest.mark.django_db


def _play(event, rounds):
    now = START
    for number in range(1, rounds + 1):
        row = start_next_round(event, number=number, key=key(), now=now)
        play_round(row)
        now += dt.timedelta(minutes=50)
        end_current_round(event, number=number, key=key(), now=now)


@pytest.mark.parametrize("name", ["scoring:event_ranking", "scoring:event_prizes"])
def test_the_ranking_pages_do_not_grow_with_rounds(
    officer_client, event, name, django_assert_max_num_queries
):
    url = reverse(name, args=[event.pk])
    _play(event, 1)
    connection.queries_log.clear()  # a full log (9,000 queries) would capture nothing
    with django_assert_max_num_queries(15) as one:
        officer_client.get(url)
    first = len(one)
    _play_more(event)
    connection.queries_log.clear()
    with django_assert_max_num_queries(first):
        assert officer_client.get(url).status_code == 200


def _play_more(event):
    now = START + dt.timedelta(hours=2)
    for number in (2, 3):
        row = start_next_round(event, number=number, key=key(), now=now)
        play_round(row)
        end_current_round(event, number=number, key=key(), now=now)


def test_the_officers_page_does_not_grow_with_rounds(
    officer_client, event, django_assert_max_num_queries
):
    url = reverse("scoring:event", args=[event.day_id])
    _play(event, 1)
    officer_client.get(url)
    connection.queries_log.clear()  # a full log (9,000 queries) would capture nothing
    with django_assert_max_num_queries(12) as one:
        officer_client.get(url)
    first = len(one)
    _play_more(event)
    officer_client.get(url)
    connection.queries_log.clear()
    with django_assert_max_num_queries(first):
        assert officer_client.get(url).status_code == 200

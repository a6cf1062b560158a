"""The officer's event pages: one test per permission boundary, the settings form's
refusals in words, the clock's buttons (each once per key)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from members.clubs.scope import in_club
from members.permissions import make_officer
from scoring.models import Game
from scoring.tourney.models import ClockAction, Event, EventRound

pytestmark = pytest.mark.django_db


def _page(event):
    return reverse("scoring:event", args=[event.day_id])


def _post(client, event, action, number=1, key="k" * 20):
    url = reverse("scoring:event_action", args=[event.pk, action])
    return client.post(url, {"number": number, "key": key})


def test_anonymous_visitors_go_to_the_login_page(outsider_client, event):
    response = outsider_client.get(_page(event))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert _post(outsider_client, event, "start").status_code == 302
    assert not EventRound.objects.exists()


def test_members_are_refused(member_client, event):
    assert member_client.get(_page(event)).status_code == 403
    assert _post(member_client, event, "start").status_code == 403
    assert not EventRound.objects.exists()


def test_another_clubs_officer_is_refused(event, other_club, django_user_model):
    user = django_user_model.objects.create_user("southie", password="south-pass-123")
    with in_club(other_club):
        make_officer(user)
    client = Client()
    client.force_login(user)
    # With two clubs on the site, the first club's pages are under /club/.
    assert client.get(f"/club{_page(event)}").status_code == 403
    url = f"/club{reverse('scoring:event_action', args=[event.pk, 'start'])}"
    assert client.post(url, {"number": 1, "key": "k" * 20}).status_code == 403
    # Under the other club's own address the event is not found at all.
    url = f"/south{reverse('scoring:event_action', args=[event.pk, 'start'])}"
    assert client.post(url, {"number": 1, "key": "k" * 20}).status_code == 404
    assert not EventRound.objects.exists()


def test_an_officer_starts_round_one_and_sees_the_clock(officer_client, event):
    response = _post(officer_client, event, "start")
    assert response.status_code == 302
    assert Game.objects.count() == 5
    html = officer_client.get(_page(event)).content.decode()
    assert "Round 1 of 3" in html and "50:00" in html
    assert "Pause the clock" in html and "End round 1" in html


def test_a_double_tap_on_a_minute_more_adds_one_minute(officer_client, event):
    _post(officer_client, event, "start", key="start-key-0123456789")
    _post(officer_client, event, "add", key="add-key-01234567890")
    response = _post(officer_client, event, "add", key="add-key-01234567890")
    assert response.status_code == 302
    assert EventRound.objects.get().shift_seconds == 60
    page = officer_client.get(_page(event)).content.decode()
    assert "already done" in page
    assert ClockAction.objects.filter(action="add").count() == 1


def test_pause_and_resume_each_count_once(officer_client, event):
    _post(officer_client, event, "start", key="start-key-0123456789")
    for _ in range(2):
        _post(officer_client, event, "pause", key="pause-key-0123456789")
    assert EventRound.objects.get().paused_at is not None
    for _ in range(2):
        _post(officer_client, event, "resume", key="resume-key-012345678")
    row = EventRound.objects.get()
    assert row.paused_at is None
    assert ClockAction.objects.filter(action__in=["pause", "resume"]).count() == 2


def test_a_stale_page_cannot_end_the_wrong_round(officer_client, event):
    _post(officer_client, event, "start", key="start-key-0123456789")
    _post(officer_client, event, "end", number=2, key="end-key-01234567890")
    assert EventRound.objects.get().ended_at is None


def test_the_settings_form_makes_the_event(officer_client, day, rules, seated):
    url = reverse("scoring:event_edit", args=[day.pk])
    assert officer_client.get(url).status_code == 200
    data = {
        "name": "Autumn pairs",
        "movement": "mitchell",
        "rounds": 3,
        "round_minutes": 50,
        "move_minutes": 5,
        "warning_minutes": 10,
        "rule_set": rules.pk,
        "time_called": "at_time",
        "ranking": "vp",
        "sections": "one",
        "tie_break": "diff",
        "vp_preset": "own",
        "vp_rows": "50 10 10\n- 20 0",
    }
    response = officer_client.post(url, data)
    assert response.status_code == 302
    event = Event.objects.get()
    assert event.vp_table == [[50, 10, 10], [None, 20, 0]]
    assert event.sections == "one" and not event.ranks_lines
    day.refresh_from_db()
    assert day.has_event  # the table pages of the day look for the event's clock
    bad = officer_client.post(url, data | {"vp_rows": "50 12 8\n- 20 0", "warning_minutes": 60})
    html = bad.content.decode()
    assert bad.status_code == 200 and "This table cannot be used" in html
    assert "The warning must come before the end" in html
    # Brackets rank one list: a Mitchell ranking its lines separately cannot have them.
    lines = data | {"sections": "lines", "upper_bracket": 4, "bracket_rounds": 1}
    html = officer_client.post(url, lines).content.decode()
    assert "Brackets rank everyone in one list" in html
    event.refresh_from_db()
    assert event.upper_bracket == 0 and event.sections == "one"


def test_the_settings_form_is_for_officers_only(member_client, day):
    url = reverse("scoring:event_edit", args=[day.pk])
    assert member_client.get(url).status_code == 403


def test_a_minute_less_counts_once_and_not_in_the_last_minute(officer_client, event):
    _post(officer_client, event, "start", key="start-key-0123456789")
    for _ in range(2):
        _post(officer_client, event, "remove", key="remove-key-012345678")
    row = EventRound.objects.get()
    assert row.shift_seconds == -60
    row.shift_seconds = -(49 * 60 + 30)  # 30 seconds left
    row.save()
    _post(officer_client, event, "remove", key="remove-key-987654321")
    assert EventRound.objects.get().shift_seconds == -(49 * 60 + 30)
    html = officer_client.get(_page(event)).content.decode()
    assert "Less than a minute is left" in html and "End the round instead" in html

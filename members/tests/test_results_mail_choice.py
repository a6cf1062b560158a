"""A member switches the results e-mail on and off on their own page."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

URL = reverse("members:me_results_mail")


def test_a_member_switches_the_results_mail_on_and_off(member_client, member_person):
    page = member_client.get(reverse("members:me")).content.decode()
    assert "Send me each club day's results" in page
    response = member_client.post(URL, {"results_by_email": "on"}, follow=True)
    assert "will be e-mailed to mary@example.org" in response.content.decode()
    member_person.refresh_from_db()
    assert member_person.results_by_email
    assert "Stop sending me the results" in response.content.decode()
    member_client.post(URL, {"results_by_email": "off"})
    member_person.refresh_from_db()
    assert not member_person.results_by_email
    reasons = [h.history_change_reason for h in member_person.history.all()[:2]]
    assert reasons == ["Results by e-mail off (own page)", "Results by e-mail on (own page)"]


def test_without_an_address_it_cannot_be_switched_on(member_client, member_person):
    member_person.email = ""
    member_person.save()
    response = member_client.post(URL, {"results_by_email": "on"}, follow=True)
    assert "We have no e-mail address for you" in response.content.decode()
    member_person.refresh_from_db()
    assert not member_person.results_by_email


def test_outsiders_are_sent_to_log_in(client):
    response = client.post(URL, {"results_by_email": "on"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_login_without_a_person_changes_nothing(client, django_user_model):
    user = django_user_model.objects.create_user("nobody", password="x-pass-12345")
    client.force_login(user)
    assert client.post(URL, {"results_by_email": "on"}).status_code == 404

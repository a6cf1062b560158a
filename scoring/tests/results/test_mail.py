"""Results by e-mail: one message per opted-in member and none to others, the log,
idempotent sends, the unsubscribe link without login, who may send; the day sheet."""

import re
import secrets
from smtplib import SMTPRecipientsRefused

import pytest
from django.core import mail
from django.urls import reverse

from members.models import Person
from members.services.days import close_day
from members.tests.factories import ClubDayFactory, GuestFactory, MemberFactory, TableFactory
from scoring.models import ResultsMailing, ResultsMessage
from scoring.results.mail import unsubscribe_token
from scoring.results.mail_tasks import send_day_results
from scoring.tests import games

pytestmark = pytest.mark.django_db


@pytest.fixture
def closed_day():
    """A closed day: Ann & Bob beat Cat & Dan 5,700 to 450. Ann, Cat and Eve (who did
    not play) asked for the results; Bob did not; Dan asked but has no address; a guest
    who plays nothing is never sent anything."""
    ann = MemberFactory(first_name="Ann", last_name="Able", results_by_email=True)
    bob = MemberFactory(first_name="Bob", last_name="Baker")
    cat = MemberFactory(first_name="Cat", last_name="Cole", results_by_email=True)
    dan = MemberFactory(first_name="Dan", last_name="Dale", email="", results_by_email=True)
    eve = MemberFactory(first_name="Eve", last_name="Ellis", results_by_email=True)
    GuestFactory(first_name="Gil", email="gil@example.org", results_by_email=True)
    day = ClubDayFactory(signed_in=[ann, bob, cat, dan])
    table = TableFactory(round__day=day, seated=[ann, bob, cat, dan])
    games.win(table, [ann, bob], [cat, dan])
    close_day(day)
    return {"day": day, "ann": ann, "bob": bob, "cat": cat, "dan": dan, "eve": eve}


def send(client, day, again=False, key=None):
    data = {"key": key or secrets.token_urlsafe(24), "again": "yes" if again else "no"}
    return client.post(reverse("scoring:send_results", args=[day.pk]), data)


def by_address():
    return {m.to[0]: m for m in mail.outbox}


def test_one_message_per_opted_in_member_and_none_to_others(officer_client, closed_day):
    response = send(officer_client, closed_day["day"])
    assert response.status_code == 302
    assert sorted(by_address()) == ["ann@example.org", "cat@example.org", "eve@example.org"]


def test_each_message_has_the_day_the_top_six_and_the_own_games(officer_client, closed_day):
    send(officer_client, closed_day["day"])
    ann = by_address()["ann@example.org"]
    assert "Results of" in ann.subject
    body = ann.body
    assert "Table 1, game 1: you won, 5,700 to 450 (Cat Cole & Dan Dale)." in body
    assert "TOP SIX" in body and "1. Ann Able & Bob Baker: 5,700" in body
    # On the friendly scale: a new player starts at 1,000, and a win raises it.
    rating = re.search(r"Your rating: ([\d,]+) before the day, ([\d,]+) after it \(\+(\d+)\)", body)
    assert rating, body
    before, after, change = (int(n.replace(",", "")) for n in rating.groups())
    assert before == 1000 and after > before and change == after - before
    cat = by_address()["cat@example.org"].body
    assert "you lost, 450 to 5,700 (Ann Able & Bob Baker)" in cat
    # Her only game lost, her rating may still rise: the message says why.
    assert "can go up even after a loss" in cat and "can go up even after a loss" in body
    assert "You did not finish a game that day." in by_address()["eve@example.org"].body
    html = ann.alternatives[0][0]
    assert "Stop these e-mails" in html and "5,700" in html


def test_the_log_says_who_got_it_and_what_failed(officer_client, closed_day, settings):
    send(officer_client, closed_day["day"])
    mailing = ResultsMailing.objects.get()
    rows = {m.person_id: m for m in mailing.messages.all()}
    assert set(rows) == {closed_day[k].pk for k in ("ann", "cat", "eve")}
    assert all(m.status == ResultsMessage.Status.SENT and m.sent_at for m in rows.values())
    page = officer_client.get(reverse("members:day", args=[closed_day["day"].pk]))
    text = page.content.decode()
    assert "Sent so far" in text
    assert "Ann Able &lt;ann@example.org&gt; — sent" in text


def test_a_failed_message_is_logged_and_the_others_still_go(closed_day, monkeypatch):
    from django.core.mail.backends.locmem import EmailBackend

    real = EmailBackend.send_messages

    def refuse_cat(self, messages):
        if messages[0].to == ["cat@example.org"]:
            raise SMTPRecipientsRefused({"cat@example.org": (550, b"mailbox unavailable")})
        return real(self, messages)

    monkeypatch.setattr(EmailBackend, "send_messages", refuse_cat)
    day = closed_day["day"]
    mailing, _ = send_day_results(day, key="k1", site_root="https://club.test/")
    statuses = {m.person.first_name: (m.status, m.error) for m in mailing.messages.all()}
    assert statuses["Cat"][0] == "failed" and "mailbox unavailable" in statuses["Cat"][1]
    assert statuses["Ann"] == ("sent", "")
    assert len(mail.outbox) == 2
    # A plain send later retries only the failed one.
    monkeypatch.setattr(EmailBackend, "send_messages", real)
    send_day_results(day, key="k2", site_root="https://club.test/")
    assert [m.to for m in mail.outbox[2:]] == [["cat@example.org"]]


def test_sending_twice_does_not_send_twice(officer_client, closed_day):
    day = closed_day["day"]
    send(officer_client, day)
    response = send(officer_client, day)
    assert len(mail.outbox) == 3
    assert response.status_code == 302
    assert ResultsMessage.objects.count() == 3


def test_the_same_press_twice_is_one_mailing(officer_client, closed_day):
    day = closed_day["day"]
    send(officer_client, day, again=True, key="same-press")
    send(officer_client, day, again=True, key="same-press")
    assert len(mail.outbox) == 3
    assert ResultsMailing.objects.count() == 1


def test_send_again_sends_again(officer_client, closed_day):
    day = closed_day["day"]
    send(officer_client, day)
    send(officer_client, day, again=True)
    assert len(mail.outbox) == 6
    assert ResultsMailing.objects.filter(again=True).count() == 1


def test_an_open_day_is_not_sent(officer_client):
    day = ClubDayFactory()
    MemberFactory(results_by_email=True)
    response = send(officer_client, day)
    assert response.status_code == 302
    assert mail.outbox == []
    messages = [str(m) for m in response.wsgi_request._messages]
    assert messages == [
        "Close the day first: the results are sent once play is over and scores are final."
    ]


def test_outsiders_are_sent_to_log_in(client, closed_day):
    response = send(client, closed_day["day"])
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert mail.outbox == []


def test_members_may_not_send(member_client, closed_day):
    assert send(member_client, closed_day["day"]).status_code == 403
    assert mail.outbox == []


def test_sending_is_a_post(officer_client, closed_day):
    url = reverse("scoring:send_results", args=[closed_day["day"].pk])
    assert officer_client.get(url).status_code == 405


def test_the_unsubscribe_link_works_without_logging_in(client, closed_day):
    ann = closed_day["ann"]
    url = reverse("scoring:results_unsubscribe", args=[unsubscribe_token(ann)])
    page = client.get(url)
    assert page.status_code == 200
    assert "Stop sending the club days' results to <strong>Ann Able</strong>" in (
        page.content.decode()
    )
    ann.refresh_from_db()
    assert ann.results_by_email  # a GET only asks
    done = client.post(url)
    assert "will no longer get" in done.content.decode()
    ann.refresh_from_db()
    assert not ann.results_by_email
    assert ann.history.first().history_change_reason == ("Results by e-mail off (unsubscribe link)")


def test_the_link_in_a_message_unsubscribes(client, officer_client, closed_day):
    send(officer_client, closed_day["day"])
    message = by_address()["eve@example.org"]
    link = re.search(r"To stop them: (\S+)", message.body).group(1)
    assert message.extra_headers["List-Unsubscribe"] == f"<{link}>"
    assert "Stop the results e-mail" in client.get(link).content.decode()
    client.post(link)
    assert not Person.objects.get(pk=closed_day["eve"].pk).results_by_email


def test_a_forged_unsubscribe_link_is_refused(client, closed_day):
    token = unsubscribe_token(closed_day["ann"])
    response = client.post(reverse("scoring:results_unsubscribe", args=[token[:-2] + "xx"]))
    assert response.status_code == 400
    assert "This link does not work" in response.content.decode()
    closed_day["ann"].refresh_from_db()
    assert closed_day["ann"].results_by_email


def test_the_day_sheet_has_the_club_the_date_and_the_top_six(officer_client, closed_day, club):
    club.name = "Riverside Canasta Club"
    club.save()
    day = closed_day["day"]
    page = officer_client.get(reverse("scoring:day_sheet", args=[day.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Riverside Canasta Club" in text
    assert f"Results of {day.date:%A} {day.date.day} {day.date:%B %Y}" in text
    assert "Top six" in text and "Ann Able &amp; Bob Baker" in text and "5,700" in text
    assert "css/print.css" in text and "js/print.js" in text


def test_the_day_sheet_is_for_logged_in_members(client, closed_day):
    response = client.get(reverse("scoring:day_sheet", args=[closed_day["day"].pk]))
    assert response.status_code == 302


def test_the_html_message_writes_every_ampersand_the_same_way(officer_client, closed_day):
    """Names joined by "&" are written "&amp;" in every list of the HTML part (the top
    six did, the games lists wrote a bare "&")."""
    send(officer_client, closed_day["day"])
    html = by_address()["ann@example.org"].alternatives[0][0]
    assert re.search(r"&(?!amp;|#\d+;|[a-z]+;)", html) is None
    assert "(Cat Cole &amp; Dan Dale)" in html  # your games
    assert "Ann Able &amp; Bob Baker 5,700 (won)" in html  # all games
    assert "Ann Able &amp; Bob Baker: <strong>5,700" in html  # top six


def test_the_sweep_command_sends_what_lost_its_task(closed_day, monkeypatch):
    import datetime

    from django.core.management import call_command
    from django.utils import timezone

    from scoring.results import mail_tasks

    monkeypatch.setattr(mail_tasks, "enqueue_mailing", lambda mailing: None)  # lost
    send_day_results(closed_day["day"], key="k1", site_root="https://club.test/")
    assert mail.outbox == []
    ResultsMessage.objects.update(due_at=timezone.now() - datetime.timedelta(minutes=11))
    call_command("requeue_stuck", verbosity=0)
    assert sorted(by_address()) == ["ann@example.org", "cat@example.org", "eve@example.org"]


def test_the_days_report_is_read_once_per_mailing(closed_day, monkeypatch):
    from scoring.results import mail_tasks

    reads = []
    real = mail_tasks.day_report

    def counted(day):
        reads.append(day.pk)
        return real(day)

    monkeypatch.setattr(mail_tasks, "day_report", counted)
    day = closed_day["day"]
    send_day_results(day, key="k1", site_root="https://club.test/")
    assert len(mail.outbox) == 3 and reads == [day.pk]  # three recipients, one report
    send_day_results(day, key="k2", again=True, site_root="https://club.test/")
    assert len(mail.outbox) == 6 and reads == [day.pk, day.pk]  # a new press reads it anew
    assert "5,700" in mail.outbox[-1].body

"""The officers' "Background work" page: who may see it, what it lists (the club's own
jobs, workbooks and results e-mails, never another club's), and the rebuild of the
totals and ratings asked for there or by the commands' ``--queue``, run by the worker."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from members.clubs.scope import in_club
from members.jobs.models import ClubJob
from members.permissions import make_officer
from scoring.models import GameTeam, ResultsMailing, WorkbookExport
from testsupport import run_worker

pytestmark = pytest.mark.django_db(transaction=True)

WORK = reverse("scoring:work")


def test_who_may_see_the_page(client, officer_client, member_user, other_club):
    ours = ClubJob.objects.create(kind="backup", key="ours", requested_at=timezone.now())
    page = f"/{ours.club.slug}/work/"
    anonymous = Client().get(page)
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    member = Client()
    member.force_login(member_user)
    assert member.get(page).status_code == 403
    assert member.post(page, {"action": "rebuild", "key": "k"}).status_code == 403
    assert officer_client.get(page).status_code == 200
    stranger = get_user_model().objects.create_user("south-officer", password="x-pass-123")
    make_officer(stranger, other_club)
    south = Client()
    south.force_login(stranger)
    assert south.get(page).status_code == 403
    assert south.post(page, {"action": "backup", "key": "k"}).status_code == 403
    assert ClubJob.objects.count() == 1  # nothing asked for by those refused


def test_the_list_shows_the_clubs_own_work_only(
    club, officer_client, officer_user, other_club, small_club, django_assert_max_num_queries
):
    now = timezone.now()
    with in_club(other_club):
        ClubJob.objects.create(kind="rebuild", key="theirs", requested_at=now, error="SOUTH")
        WorkbookExport.objects.create(requested_at=now, language="en", stamp="x", error="S2")
    ClubJob.objects.create(
        kind="backup", key="a", requested_at=now, requested_by=officer_user, status="failed",
        error="The backup could not be made (NORTH).",
    )  # fmt: skip
    ClubJob.objects.create(kind="roster", key="b", requested_at=now, status="running")
    WorkbookExport.objects.create(requested_at=now, language="en", stamp="x", status="ready")
    day = small_club["day1"]
    mailing = ResultsMailing.objects.create(day=day, key="m", created_at=now)
    mailing.messages.create(day=day, person=small_club["A"], email="a@example.org")
    page_url = f"/{club.slug}/work/"
    # Fixed, not one per line; 14 and, on the login's first page, the menu's "is this
    # officer a member?" read once and kept in the session (issue 34's "Book a day").
    with django_assert_max_num_queries(17):
        page = officer_client.get(page_url).content.decode()
    assert "Club backup" in page and "NORTH" in page and "officer" in page
    assert "Roster import" in page and "running" in page
    assert "League workbook" in page and "Sending: 0 of 1" in page
    assert "SOUTH" not in page and "Rebuild of the totals" not in page
    assert "a@example.org" not in page  # the day's own page names the addresses


def test_a_rebuild_asked_for_on_the_page_is_run_by_the_worker(officer_client, small_club, db_tasks):
    GameTeam.objects.update(total=0)  # stored totals gone wrong
    key = officer_client.get(WORK).context["key"]
    response = officer_client.post(WORK, {"action": "rebuild", "key": key})
    job = ClubJob.objects.get()
    assert response["Location"] == reverse("members:job", args=[job.pk])
    assert (
        officer_client.post(WORK, {"action": "rebuild", "key": key})["Location"]
        == (response["Location"])
    )
    assert DBTaskResult.objects.count() == 1
    assert not GameTeam.objects.exclude(total=0).exists()  # not in the request
    run_worker()
    job.refresh_from_db()
    assert job.status == "done" and job.result["games"] >= 1
    assert GameTeam.objects.exclude(total=0).exists()
    page = officer_client.get(response["Location"]).content.decode()
    assert "Done: the stored totals and ratings were made again" in page


def test_the_commands_can_queue_the_rebuild(db_tasks, small_club, capsys):
    call_command("rebuild_totals", "--queue")
    call_command("rebuild_ratings", "--queue")
    call_command("rebuild_totals", "--queue")  # already waiting: not asked twice
    out = capsys.readouterr().out
    assert "Queued: the club's rebuild of the totals" in out
    assert "Already waiting or running" in out
    assert sorted(ClubJob.objects.values_list("payload__part", flat=True)) == [
        "ratings",
        "totals",
    ]
    run_worker()
    assert set(ClubJob.objects.values_list("status", flat=True)) == {"done"}


def test_an_unknown_button_is_refused_in_plain_words(officer_client):
    response = officer_client.post(WORK, {"action": "delete", "key": "k"}, follow=True)
    assert "Choose one of the buttons on this page." in response.content.decode()
    assert ClubJob.objects.count() == 0

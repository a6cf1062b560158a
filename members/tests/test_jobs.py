"""The club's background jobs (members.jobs) on the real database queue and its worker:
the roster import's apply step (a second press applies nothing twice), a backup made
and downloaded, a job left by a killed worker done once, a temporary failure tried
again; and who may see a job (officers of its own club only)."""

import datetime
import json

import pytest
from django.db import OperationalError
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from members.clubs.scope import in_club
from members.jobs import runner
from members.jobs.models import ClubJob
from members.models import Person
from members.permissions import make_officer
from members.tests.test_people import upload
from testsupport import run_worker

pytestmark = pytest.mark.django_db(transaction=True)

IMPORT = reverse("members:import")
ROSTER = b"No.,First,Last,Email\n5,Al,Bee,al@example.org\n6,Cy,Dee,\nx,,,\n"


def preview(client) -> str:
    response = client.post(IMPORT, {"file": upload("r.csv", ROSTER), "date_order": "auto"})
    assert "nothing is saved yet" in response.content.decode()
    return response.context["token"]


def confirm(client, token):
    return client.post(IMPORT, {"action": "confirm", "token": token})


def test_confirming_queues_the_import_and_the_page_says_what_was_done(officer_client, db_tasks):
    token = preview(officer_client)
    response = confirm(officer_client, token)
    job = ClubJob.objects.get()
    assert response["Location"] == reverse("members:job", args=[job.pk])
    assert Person.objects.count() == 0  # not applied inside the request
    page = officer_client.get(response["Location"]).content.decode()
    assert "Waiting for the site" in page
    assert 'hx-trigger="every 3s"' in page

    # A second press (a double tap, a reload of the POST) finds the same job.
    again = confirm(officer_client, token)
    assert again["Location"] == response["Location"]
    assert ClubJob.objects.count() == 1 and DBTaskResult.objects.count() == 1

    run_worker()
    assert sorted(Person.objects.values_list("membership_number", flat=True)) == ["5", "6"]
    job.refresh_from_db()
    assert job.status == "done" and job.payload == {}  # the roster is not kept
    page = officer_client.get(response["Location"], headers={"HX-Request": "true"}).content.decode()
    assert "Roster imported: 2 created, 0 updated, 0 unchanged, 1 refused." in page
    assert "These rows were not imported" in page and "hx-trigger" not in page
    # Pressed again after it was done: still the same job, nobody added twice.
    assert confirm(officer_client, token)["Location"] == response["Location"]
    run_worker()
    assert Person.objects.count() == 2


def test_an_import_whose_worker_was_killed_is_applied_once(officer_client, db_tasks):
    confirm(officer_client, preview(officer_client))
    job = ClubJob.objects.get()
    # What a worker killed mid-way leaves: the job taken, its task "running", and
    # (the apply being one transaction with the job's "done") no person written.
    ClubJob.objects.filter(pk=job.pk).update(status="running", started_at=timezone.now())
    DBTaskResult.objects.update(status="RUNNING")
    run_worker()
    assert Person.objects.count() == 0
    assert runner.requeue_stuck() == 0  # it may still be going
    later = timezone.now() + datetime.timedelta(minutes=11)
    assert runner.requeue_stuck(now=later) == 1
    runner.enqueue(job)  # and its task queued twice: still applied once
    run_worker()
    assert Person.objects.count() == 2
    assert ClubJob.objects.get().status == "done"


def test_a_temporary_failure_is_tried_again_and_then_said(officer_client, db_tasks, monkeypatch):
    from members.jobs import tasks

    calls = []

    def busy(job):
        calls.append(job.attempts)
        raise OperationalError("database is locked")

    monkeypatch.setattr(tasks, "_apply_roster", busy)
    confirm(officer_client, preview(officer_client))
    run_worker()
    job = ClubJob.objects.get()
    assert job.status == "pending" and job.due_at > timezone.now()
    assert "the database was busy" in job.error
    # The retry is deferred: the worker leaves it until it is due.
    assert DBTaskResult.objects.filter(status="READY").count() == 1
    DBTaskResult.objects.filter(status="READY").update(run_after=timezone.now())
    for _ in range(4):
        run_worker()
        DBTaskResult.objects.filter(status="READY").update(run_after=timezone.now())
    job.refresh_from_db()
    assert calls == [1, 2, 3, 4, 5] and job.status == "failed"
    page = officer_client.get(reverse("members:job", args=[job.pk])).content.decode()
    assert "It could not be done." in page and "Nothing was saved" in page


def test_a_backup_is_made_by_the_worker_and_downloaded(officer_client, db_tasks, member_person):
    work = reverse("scoring:work")
    key = officer_client.get(work).context["key"]
    response = officer_client.post(work, {"action": "backup", "key": key})
    job = ClubJob.objects.get(kind="backup")
    assert response["Location"] == reverse("members:job", args=[job.pk])
    # A second press, or another officer's while it waits: the same backup.
    assert (
        officer_client.post(work, {"action": "backup", "key": key})["Location"]
        == (response["Location"])
    )
    other_key = officer_client.get(work).context["key"]
    officer_client.post(work, {"action": "backup", "key": other_key})
    assert ClubJob.objects.count() == 1

    run_worker()
    job.refresh_from_db()
    assert job.status == "done" and job.file_name and job.result["rows"] > 0
    page = officer_client.get(response["Location"]).content.decode()
    assert "The backup is ready" in page
    download = officer_client.get(reverse("members:job_file", args=[job.pk]))
    assert download.status_code == 200
    document = json.loads(b"".join(download.streaming_content))
    assert "mary@example.org" in json.dumps(document)

    # Kept for EXPORTS_KEEP_HOURS, then the file goes and the page says so.
    runner.prune(now=timezone.now() + datetime.timedelta(hours=25))
    assert officer_client.get(reverse("members:job_file", args=[job.pk])).status_code == 404
    page = officer_client.get(response["Location"]).content.decode()
    assert "has been deleted from the site" in page


def test_who_may_see_a_job(client, officer_client, member_user, other_club, django_user_model):
    with in_club(other_club):
        theirs = ClubJob.objects.create(
            kind="backup", key="k1", requested_at=timezone.now(), status="done", file_name="x"
        )
    ours = ClubJob.objects.create(kind="backup", key="k2", requested_at=timezone.now())
    club_slug = ours.club.slug
    page = f"/{club_slug}/jobs/{ours.pk}/"
    file = f"/{club_slug}/jobs/{ours.pk}/backup.json"

    anonymous = Client()
    assert anonymous.get(page).status_code == 302
    assert "/accounts/login/" in anonymous.get(page)["Location"]
    member = Client()
    member.force_login(member_user)
    assert member.get(page).status_code == 403
    assert member.get(file).status_code == 403
    assert officer_client.get(page).status_code == 200
    # Their officer: refused here, and our job is not found at their club.
    stranger = django_user_model.objects.create_user("south-officer", password="x-pass-123")
    make_officer(stranger, other_club)
    south = Client()
    south.force_login(stranger)
    assert south.get(page).status_code == 403
    assert south.get(f"/{other_club.slug}/jobs/{ours.pk}/").status_code == 404
    assert south.get(f"/{other_club.slug}/jobs/{theirs.pk}/").status_code == 200
    # And ours never shows theirs.
    assert officer_client.get(f"/{club_slug}/jobs/{theirs.pk}/").status_code == 404
    assert officer_client.get(f"/{club_slug}/jobs/{theirs.pk}/backup.json").status_code == 404


def test_without_a_worker_a_temporary_failure_waits_for_the_sweep(officer_client, monkeypatch):
    """The immediate backend (no worker) cannot run a task later: the job waits, and
    requeue_stuck runs it once it is overdue, instead of retrying inside the failure."""
    from members.jobs import tasks

    calls = []
    real = tasks._apply_roster

    def busy_once(job):
        calls.append(job.attempts)
        if job.attempts == 1:
            raise OperationalError("database is locked")
        return real(job)

    monkeypatch.setattr(tasks, "_apply_roster", busy_once)
    confirm(officer_client, preview(officer_client))
    job = ClubJob.objects.get()
    assert (job.status, calls, Person.objects.count()) == ("pending", [1], 0)
    # Due a minute after the failure; stuck TASKS_STUCK_MINUTES (10) after that.
    later = timezone.now() + datetime.timedelta(minutes=12)
    assert runner.requeue_stuck(now=later) == 1
    job.refresh_from_db()
    assert (job.status, calls, Person.objects.count()) == ("done", [1, 2], 2)

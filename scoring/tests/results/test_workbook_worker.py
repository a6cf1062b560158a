"""The league workbook on the real worker (the database queue and ``db_worker``): the
ask answers at once with a page that shows it being made, a second ask reuses it, the
worker makes it once, the officer downloads it; one left by a killed worker is made
again; old ones are deleted."""

import datetime
import io

import pytest
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult
from openpyxl import load_workbook

from scoring.models import WorkbookExport
from scoring.results import workbook_tasks
from testsupport import run_worker

pytestmark = pytest.mark.django_db(transaction=True)

ASK = reverse("scoring:league_workbook") + "?season=all"


def sheets(response) -> list[str]:
    return load_workbook(io.BytesIO(b"".join(response.streaming_content))).sheetnames


def test_the_ask_answers_at_once_and_the_worker_makes_it(officer_client, db_tasks):
    first = officer_client.get(ASK)
    export = WorkbookExport.objects.get()
    page_url = reverse("scoring:workbook", args=[export.pk])
    assert first.status_code == 302 and first["Location"] == page_url
    page = officer_client.get(page_url).content.decode()
    assert "waiting for the site's background worker" in page and "every 3s" in page
    # A second press while it waits is the same workbook, queued once.
    assert officer_client.get(ASK)["Location"] == page_url
    assert WorkbookExport.objects.count() == 1 and DBTaskResult.objects.count() == 1

    run_worker()
    export.refresh_from_db()
    assert export.status == "ready" and export.file_name
    page = officer_client.get(page_url, headers={"HX-Request": "true"}).content.decode()
    assert reverse("scoring:workbook_file", args=[export.pk]) in page
    assert "hx-trigger" not in page  # done: the part stops reloading
    download = officer_client.get(reverse("scoring:workbook_file", args=[export.pk]))
    assert download.status_code == 200
    assert 'filename="league-all-games.xlsx"' in download["Content-Disposition"]
    assert sheets(download)[:2] == ["Summary", "Standings"]
    # Asked again with nothing changed: the ready one, at once.
    again = officer_client.get(ASK)
    assert again.status_code == 200 and WorkbookExport.objects.count() == 1


def test_one_left_by_a_killed_worker_is_made_again(officer_client, db_tasks):
    officer_client.get(ASK)
    export = WorkbookExport.objects.get()
    # What a worker killed while making it leaves: the row taken, its task "running".
    WorkbookExport.objects.filter(pk=export.pk).update(
        status="making", started_at=timezone.now() - datetime.timedelta(minutes=11)
    )
    DBTaskResult.objects.update(status="RUNNING")
    page = officer_client.get(reverse("scoring:workbook", args=[export.pk])).content.decode()
    assert "may be stopped" in page
    assert workbook_tasks.requeue_stuck() == 1
    run_worker()
    export.refresh_from_db()
    assert export.status == "ready"


def test_old_workbooks_are_deleted_with_their_files(officer_client, settings):
    officer_client.get(ASK)  # made at once (the immediate backend)
    export = WorkbookExport.objects.get()
    storage = workbook_tasks.storage()
    assert export.status == "ready" and storage.exists(export.file_name)
    later = timezone.now() + datetime.timedelta(hours=settings.EXPORTS_KEEP_HOURS, minutes=1)
    assert workbook_tasks.prune_workbooks(now=later) == 1
    assert not storage.exists(export.file_name) and not WorkbookExport.objects.exists()

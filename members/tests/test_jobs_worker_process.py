"""Club jobs done by the worker as its own process (``manage.py db_worker``, as
deployed; ``testsupport.worker_process``): a confirmed roster import saved once, and a
club's backup written where the site's pages give it to the officers."""

import json

import pytest
from django.conf import settings
from django.db import connection
from django.urls import reverse

from members.jobs.models import ClubJob
from members.models import Person
from members.tests.test_jobs import confirm, preview
from testsupport.worker_process import WorkerDatabase

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def worker_db(tmp_path):
    return WorkerDatabase(connection, tmp_path)


def run_worker_process(worker_db):
    exports = str(settings.STORAGES["exports"]["OPTIONS"]["location"])
    worker_db.to_worker()
    env = worker_db.environment(EXPORTS_DIR=exports)
    worker_db.manage("db_worker", "--batch", "--no-reload", "--interval", "0", env=env)
    worker_db.from_worker()


def test_a_confirmed_import_is_saved_once_by_the_worker_process(
    officer_client, worker_db, db_tasks
):
    token = preview(officer_client)
    page = confirm(officer_client, token)["Location"]
    confirm(officer_client, token)  # pressed twice
    assert Person.objects.count() == 0
    run_worker_process(worker_db)
    assert sorted(Person.objects.values_list("membership_number", flat=True)) == ["5", "6"]
    text = officer_client.get(page).content.decode()
    assert "Roster imported: 2 created, 0 updated, 0 unchanged, 1 refused." in text


def test_a_backup_made_by_the_worker_process_is_downloaded(
    officer_client, member_person, worker_db, db_tasks
):
    work = reverse("scoring:work")
    key = officer_client.get(work).context["key"]
    page = officer_client.post(work, {"action": "backup", "key": key})["Location"]
    run_worker_process(worker_db)
    job = ClubJob.objects.get()
    assert job.status == "done", job.error
    assert "The backup is ready" in officer_client.get(page).content.decode()
    download = officer_client.get(reverse("members:job_file", args=[job.pk]))
    document = json.loads(b"".join(download.streaming_content))
    assert "mary@example.org" in json.dumps(document)

"""Journey: an officer finds "Background work" on the club settings page, asks for a
backup of the club, follows it to the download, and sees it on the list; at 320 px
(nothing wider than the screen, buttons 44 px tall) and at 1,280 px."""

import pytest

from members.jobs.models import ClubJob

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def fits(page, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_an_officer_asks_for_a_backup_and_downloads_it(journey, officer_user):
    page = journey.page
    journey.login("officer", "officer-pass-123")
    page.set_viewport_size({"width": 320, "height": 700})
    journey.goto("/settings/")
    page.get_by_role("link", name="Background work").click()
    page.wait_for_load_state()
    journey.step("background work, nothing yet, 320 px")
    fits(page, 320)
    button = page.get_by_role("button", name="Make a backup of the club")
    assert button.bounding_box()["height"] >= 44
    button.click()
    page.wait_for_load_state()
    # The tests' tasks run at once: the job page has the download already.
    link = page.get_by_role("link", name="Download the backup (.json)")
    link.wait_for()
    journey.step("the backup is ready, 320 px")
    fits(page, 320)
    assert link.bounding_box()["height"] >= 44
    with page.expect_download() as download:
        link.click()
    assert download.value.suggested_filename.endswith(".json")
    assert ClubJob.objects.get().status == "done"

    page.set_viewport_size({"width": 1280, "height": 800})
    page.get_by_role("link", name="← Background work").click()
    page.wait_for_load_state()
    journey.step("the list with the backup, 1280 px")
    assert "Club backup" in page.content() and "Done" in page.content()

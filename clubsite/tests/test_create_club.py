"""``manage.py create_club``: a club with its settings and its first officer, who is
e-mailed a one-time link (at the club's address) to set a password; clear refusals
that change nothing and end the command with a non-zero exit code."""

from __future__ import annotations

import re
import smtplib
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command, execute_from_command_line
from django.core.management.base import CommandError

from members.clubs.scope import in_club
from members.clubs.services import move_club
from members.models import Club, ClubRole
from scoring.models import ClubSettings, ResultsVersion

PASSWORD = "a-long-pass-42"


pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fast(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.SITE_URL = "https://clubs.example.org"


def create(*args, **options) -> str:
    out = StringIO()
    call_command("create_club", *args, stdout=out, stderr=StringIO(), **options)
    return out.getvalue()


def officers_of(club) -> list:
    return [
        role.user
        for role in ClubRole.objects.with_scopes_disabled().filter(club=club).select_related("user")
    ]


def the_link(mail) -> str:
    found = re.search(r"https://clubs\.example\.org(/\S+)", mail.body)
    assert found, mail.body
    return found.group(1)


def test_a_club_with_an_officer_email_gets_its_settings_and_a_link_at_its_address(mailoutbox):
    out = create(
        "north",
        name="North Club",
        officer_email="nora@example.org",
        time_zone="Europe/London",
        language="es",
    )
    club = Club.objects.get(slug="north")
    assert (club.name, club.time_zone, club.language_code) == (
        "North Club",
        "Europe/London",
        "es",
    )
    with in_club(club):
        assert ClubSettings.objects.get().default_rule_set.slug == "club"
        assert ResultsVersion.objects.count() == 1
    [officer] = officers_of(club)
    assert officer.email == "nora@example.org" and not officer.has_usable_password()
    assert "/north/" in out and "nora@example.org" in out
    assert "The site has two clubs now" in out  # the first club's pages are at /<slug>/
    [mail] = mailoutbox
    assert mail.to == ["nora@example.org"] and "North Club" in mail.subject
    assert the_link(mail).startswith("/north/accounts/reset/")


def test_the_link_sets_the_password_once_and_logs_the_officer_in_at_the_club(
    client, mailoutbox, other_club
):
    create("north", name="North Club", officer_email="nora@example.org")
    link = the_link(mailoutbox[0])

    response = client.get(link)
    assert response.status_code == 302 and response.url.endswith("/set-password/")
    form_url = response.url
    page = client.get(form_url)
    assert page.status_code == 200 and "nora@example.org" in page.content.decode()
    done = client.post(form_url, {"new_password1": PASSWORD, "new_password2": PASSWORD})
    assert done.status_code == 302 and done.url == "/north/"
    officer = get_user_model().objects.get(email="nora@example.org")
    assert officer.check_password(PASSWORD)
    assert client.get("/north/settings/").status_code == 200  # logged in, the club's officer
    assert client.get("/south/settings/").status_code == 403  # nobody at another club

    client.logout()
    again = client.get(link, follow=True)
    assert again.status_code == 400
    assert "does not work any more" in again.content.decode()
    assert "new_password1" not in again.content.decode()


def test_officer_username_and_password_for_scripts_send_no_mail(mailoutbox):
    out = create("north", name="North Club", officer_username="n", officer_password=PASSWORD)
    club = Club.objects.get(slug="north")
    [officer] = officers_of(club)
    assert officer.username == "n" and officer.check_password(PASSWORD)
    assert mailoutbox == [] and "login n" in out


def test_an_existing_login_becomes_the_officer_and_keeps_its_password(
    django_user_model, mailoutbox
):
    old = django_user_model.objects.create_user("olga", "olga@example.org", PASSWORD)
    create("north", name="North Club", officer_email="OLGA@example.org")
    assert officers_of(Club.objects.get(slug="north")) == [old]
    old.refresh_from_db()
    assert old.check_password(PASSWORD)
    [mail] = mailoutbox
    assert "/north/accounts/login/" in mail.body and "/accounts/reset/" not in mail.body


@pytest.mark.parametrize(
    ("slug", "options", "message"),
    [
        (None, {"officer_email": "a@example.org"}, "Another club has the address /"),
        ("North Club", {"officer_email": "a@example.org"}, "small letters"),
        ("admin", {"officer_email": "a@example.org"}, "an address the site uses itself"),
        ("north", {}, "Say who the club's first officer is"),
        ("north", {"officer_password": PASSWORD}, "needs the login's name"),
        ("north", {"officer_email": "not-an-address"}, "is not an e-mail address"),
        ("north", {"officer_username": "n"}, "needs a password or an e-mail"),
        ("north", {"officer_username": "n", "officer_password": "1"}, "will not do"),
        ("north", {"officer_email": "a@example.org", "time_zone": "Mars/Base"}, "time zone"),
        ("north", {"officer_email": "a@example.org", "language": "xx"}, "not a language"),
    ],
)
def test_refusals_are_plain_and_make_nothing(slug, options, message, mailoutbox, club):
    slug = slug or club.slug  # None: the first club's slug, which is taken
    clubs, users = Club.objects.count(), get_user_model().objects.count()
    with pytest.raises(CommandError, match=re.escape(message)):
        create(slug, name="North Club", **options)
    assert Club.objects.count() == clubs and get_user_model().objects.count() == users
    assert mailoutbox == []


def test_a_missing_name_is_refused():
    with pytest.raises(CommandError, match="Give the club's name"):
        create("north", officer_email="a@example.org")


def test_an_existing_login_is_never_given_a_new_password(django_user_model):
    django_user_model.objects.create_user("n", password=PASSWORD)
    with pytest.raises(CommandError, match="A login named n exists already"):
        create("north", name="North", officer_username="n", officer_password="other-pass-99")
    assert django_user_model.objects.get(username="n").check_password(PASSWORD)


def test_another_clubs_old_slug_is_refused(other_club):
    move_club(other_club, "south-hills")
    with pytest.raises(CommandError, match="was another club's address"):
        create("south", name="New South", officer_email="a@example.org")


def test_a_refusal_ends_the_command_with_a_non_zero_exit_code(capsys, monkeypatch):
    from django.db import connections

    # manage.py closes the connections at the end; the test's transaction needs its own.
    monkeypatch.setattr(connections, "close_all", lambda: None)
    with pytest.raises(SystemExit) as ended:
        execute_from_command_line(
            ["manage.py", "create_club", "admin", "--name", "Admin", "--officer-email", "a@b.org"]
        )
    assert ended.value.code != 0
    assert "an address the site uses itself" in capsys.readouterr().err


def test_when_the_mail_server_refuses_the_link_is_printed_for_the_operator(monkeypatch):
    from members.clubs import officers

    def refuse(*args, **kwargs):
        raise smtplib.SMTPException("551 no")

    monkeypatch.setattr(officers, "send_mail", refuse)
    err = StringIO()
    with pytest.raises(CommandError, match="not e-mailed"):
        call_command(
            "create_club", "north", name="North", officer_email="n@example.org", stderr=err
        )
    assert Club.objects.filter(slug="north").exists()
    assert "https://clubs.example.org/north/accounts/reset/" in err.getvalue()

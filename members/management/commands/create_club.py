"""``manage.py create_club SLUG --name "..." --officer-email ADDRESS``: a new club with
its settings, and its first officer (docs/deploy.md, "Starting a club")."""

from __future__ import annotations

import smtplib

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError, IntegrityError, transaction

from members.clubs.addresses import shared_site
from members.clubs.forms import language_codes
from members.clubs.officers import (
    OfficerProblem,
    officer_link,
    officer_login,
    welcome_officer,
)
from members.clubs.scope import club_path
from members.clubs.services import create_club
from members.models import Club


class Command(BaseCommand):
    help = (
        "Make a club: its settings (the shipped house rules as its default rule set) and "
        "its first officer, who is e-mailed a one-time link to set a password "
        "(--officer-email), or given one here (--officer-username and --officer-password)."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug", help="The club's part of the addresses: /<slug>/.")
        parser.add_argument("--name", help="The club's name, as its pages show it.")
        parser.add_argument("--officer-email", default="", help="The first officer's e-mail.")
        parser.add_argument("--officer-username", default="", help="The officer's login name.")
        parser.add_argument("--officer-password", default=None, help="The officer's password.")
        parser.add_argument("--time-zone", help="Where the club plays, e.g. Europe/London.")
        parser.add_argument("--language", help="The language code of its pages: en, es or pt-br.")
        parser.add_argument("--host", help="A host name of the club's own (optional).")

    def handle(self, *args, slug, name, **options):
        if not (name or "").strip():
            raise CommandError('Give the club\'s name: --name "North Club".')
        fields = self._fields(options)
        try:
            with transaction.atomic():
                officer = officer_login(
                    email=options["officer_email"].strip(),
                    username=options["officer_username"].strip(),
                    password=options["officer_password"],
                )
                club = create_club(slug.strip(), name.strip(), officer=officer, **fields)
        except OfficerProblem as problem:
            raise CommandError(str(problem)) from None
        except ValidationError as problem:
            raise CommandError(_plain(problem)) from None
        except IntegrityError:  # another club took the slug or host at the same moment
            raise CommandError(f"Another club has the address /{slug}/ already.") from None
        except DatabaseError:
            raise CommandError(
                "The site's database is not set up (or not up to date): run "
                "`manage.py migrate` first."
            ) from None
        self.stdout.write(
            self.style.SUCCESS(f"Made the club {club.name} at {club_path(None, club, 'home')}.")
        )
        self._tell_officer(officer, club)
        first = Club.objects.filter(root_links=True).exclude(pk=club.pk).first()
        if first is not None and not shared_site() and Club.objects.count() == 2:
            self.stdout.write(
                f"The site has two clubs now: {first.name}'s pages are at "
                f"{club_path(None, first, 'home')} (its old links lead there)."
            )

    def _fields(self, options) -> dict:
        fields = {}
        if options["time_zone"]:
            fields["time_zone"] = options["time_zone"]
        if options["language"]:
            if options["language"] not in language_codes():
                raise CommandError(
                    f"“{options['language']}” is not a language of the site; use one of "
                    + ", ".join(language_codes())
                    + "."
                )
            fields["language_code"] = options["language"]
        if options["host"]:
            fields["host"] = options["host"]
        return fields

    def _tell_officer(self, officer, club) -> None:
        who = officer.get_username()
        if not officer.email:
            self.stdout.write(f"Its officer is the login {who}.")
            return
        link = officer_link(officer, club)
        try:
            welcome_officer(officer, club, link)
        except (smtplib.SMTPException, OSError) as problem:
            self.stderr.write(
                f"The e-mail to {officer.email} could not be sent ({problem}). Give the "
                f"officer ({who}) this link yourself; it works once:\n{link}"
            )
            raise CommandError("The club is made, but its officer was not e-mailed.") from None
        if officer.has_usable_password():
            self.stdout.write(f"Its officer is the login {who}; told at {officer.email}.")
        else:
            self.stdout.write(
                f"Its officer is the new login {who}: a one-time link to set its password "
                f"was sent to {officer.email}."
            )


def _plain(problem: ValidationError) -> str:
    """A ValidationError of the club's fields as one plain sentence or a few."""
    if hasattr(problem, "message_dict"):
        labels = {"slug": "The slug", "time_zone": "The time zone", "host": "The host name"}
        return " ".join(
            f"{labels.get(field, field)}: {' '.join(messages)}"
            for field, messages in problem.message_dict.items()
        )
    return " ".join(problem.messages)

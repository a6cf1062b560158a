from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from clubsite.backups import BackupError, backup_sqlite
from members.clubs.commands import command_club
from members.clubs.portable import PortableError, export_club


class Command(BaseCommand):
    help = (
        "Back up the SQLite database while the site runs (SQLite's online backup API): the "
        "whole site, every club (restore it with restore_backup). For PostgreSQL, use "
        "pg_dump as the README shows. With --club SLUG, write that one club's export "
        "instead (export_club's file, on SQLite or PostgreSQL; read it back with import_club)."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "target",
            nargs="?",
            help="A file name, or a folder for a time-stamped file (default: BACKUP_DIR).",
        )
        parser.add_argument(
            "--club",
            metavar="SLUG",
            help="Back up only this club, as its export file (the whole database otherwise).",
        )

    def handle(self, *args, target=None, club=None, **options):
        now = timezone.localtime()
        if club:
            self._club(club, target or settings.BACKUP_DIR, now)
            return
        try:
            written = backup_sqlite(target or settings.BACKUP_DIR, now)
        except BackupError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(self.style.SUCCESS(f"Backup written to {written}"))

    def _club(self, slug, target, now):
        found = command_club(slug)
        target = Path(target)
        if target.suffix == "" or target.is_dir():
            target = target / f"{found.slug}-{now:%Y%m%d-%H%M%S}.json"
        try:
            export_club(found, target)
        except PortableError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(
            self.style.SUCCESS(
                f"Backup of {found.name} written to {target} (read it back with import_club)."
            )
        )

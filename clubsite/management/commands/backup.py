from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from clubsite.backups import BackupError, backup_sqlite


class Command(BaseCommand):
    help = (
        "Back up the SQLite database while the site runs (SQLite's online backup API). "
        "For PostgreSQL, use pg_dump as the README shows."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "target",
            nargs="?",
            help="A file name, or a folder for a time-stamped file (default: BACKUP_DIR).",
        )

    def handle(self, *args, target=None, **options):
        try:
            written = backup_sqlite(target or settings.BACKUP_DIR, timezone.localtime())
        except BackupError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(self.style.SUCCESS(f"Backup written to {written}"))

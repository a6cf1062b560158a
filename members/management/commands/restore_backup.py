from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from clubsite.backups import BackupError, restore_sqlite
from members.clubs.portable import looks_like_export


class Command(BaseCommand):
    help = (
        "Replace the SQLite database's contents with a backup made by `manage.py backup`, "
        "then bring it up to this version's migrations. Refuses a file that is not a "
        "backup of this site, or one made by a newer version, and changes nothing then. "
        "One club's export (backup --club) is read back with import_club instead."
    )

    def add_arguments(self, parser):
        parser.add_argument("source", help="The backup file.")
        parser.add_argument(
            "--yes", action="store_true", help="Confirm: everything saved since is replaced."
        )

    def handle(self, *args, source, yes=False, **options):
        if looks_like_export(source):
            raise CommandError(
                f"{source} is one club's export (backup --club or export_club), not a backup "
                "of the whole site: read it back with manage.py import_club. Nothing was changed."
            )
        if not yes:
            raise CommandError(
                "Restoring replaces everything saved since the backup. Stop the site, "
                "then run again with --yes."
            )
        try:
            restore_sqlite(source)
        except BackupError as exc:
            raise CommandError(str(exc)) from exc
        call_command("migrate", interactive=False, verbosity=0)
        self.stdout.write(self.style.SUCCESS(f"Restored from {source} and migrated."))

"""``manage.py import_club FILE [--slug NEW]``: a club exported by ``export_club``,
made anew on this site (see :mod:`members.clubs.importer`)."""

from django.core.management.base import BaseCommand, CommandError

from members.clubs.importer import MAX_FILE_BYTES, MB, import_club
from members.clubs.portable import PortableError


class Command(BaseCommand):
    help = (
        "Read a club written by export_club into this site as a new club, in one "
        "transaction (a failure leaves nothing written). A login is the same here when its "
        "user name and e-mail match (never a staff or superuser login); otherwise a new "
        "one is made without a usable password. The whole file is checked first: a file "
        "that is damaged, too large or not an export is refused (exit status 2) with what "
        "is wrong, row by row."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="The export file.")
        parser.add_argument("--slug", help="The new club's slug (default: the file's).")
        parser.add_argument(
            "--max-size",
            type=int,
            metavar="MB",
            default=MAX_FILE_BYTES // MB,
            help=f"The largest file read, in MB (default {MAX_FILE_BYTES // MB}).",
        )

    def handle(self, *args, file, slug=None, max_size, **options):
        try:
            done = import_club(file, slug=slug, max_bytes=max_size * MB)
        except PortableError as exc:
            raise CommandError(str(exc), returncode=2) from exc
        club = done.club
        self.stdout.write(
            f"Logins: {done.users_matched} matched by user name and e-mail, {done.users_made} made "
            "without a usable password (set one in the admin)."
        )
        if done.codes_renewed:
            self.stdout.write(
                f"{done.codes_renewed} room codes, table links or board codes were taken on "
                "this site and were given new ones."
            )
        for note in done.notes:
            self.stdout.write(note)
        total = sum(done.rows.values())
        self.stdout.write(
            self.style.SUCCESS(f"Imported {club.name} as “{club.slug}” ({total:,} rows).")
        )

"""Compile the translation catalogs (``locale/<lang>/LC_MESSAGES/*.po``) into the ``.mo``
files Django reads, with Babel, so a machine without GNU gettext (``msgfmt``, which
Django's own ``compilemessages`` needs) can run the site. ``make run`` and ``make test``
run it; a deploy runs it after installing (docs/deploy.md). The ``.mo`` files are not
committed. Fuzzy entries are left out, as ``msgfmt`` leaves them out."""

from __future__ import annotations

from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from django.conf import settings
from django.core.management.base import BaseCommand


def catalogs() -> list[Path]:
    """Every ``.po`` file of the site's own catalogs."""
    found: list[Path] = []
    for folder in settings.LOCALE_PATHS:
        found += sorted(Path(folder).glob("*/LC_MESSAGES/*.po"))
    return found


def compile_catalog(po: Path) -> Path:
    """Write ``po``'s ``.mo`` beside it; returns its path."""
    with po.open("rb") as handle:
        catalog = read_po(handle, locale=po.parent.parent.name)
    mo = po.with_suffix(".mo")
    with mo.open("wb") as handle:
        write_mo(handle, catalog, use_fuzzy=False)
    return mo


class Command(BaseCommand):
    help = "Compile the site's translation catalogs (.po) into .mo files, with Babel."
    # Its own check (clubsite.W010) would warn about what it is about to fix.
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument(
            "--force", action="store_true", help="Compile even the catalogs that look current."
        )

    def handle(self, *args, force=False, verbosity=1, **options):
        found = catalogs()
        if not found and verbosity:
            self.stdout.write(f"No catalogs under {settings.LOCALE_PATHS}: nothing to compile.")
        for po in found:
            mo = po.with_suffix(".mo")
            if not force and mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
                continue
            compile_catalog(po)
            if verbosity:
                self.stdout.write(f"Compiled {po}")

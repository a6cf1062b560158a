"""Score hands given as JSON, as shared/docs/scoring-contract.md describes.

    python manage.py score_hand FILE.json     # or - for standard input

Prints one result object (or a list, for a list of hands) as JSON. Exit status 0 when
every hand scored, 2 when any hand was refused (its result carries ``errors``; the
others are still scored), 1 when the input cannot be read, is not UTF-8 text or is not
JSON at all (one line on standard error). The command is thin: all the rules live in
``scoring.engine``.
"""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand

from scoring.engine import score_request

EXIT_REFUSED = 2
EXIT_UNREADABLE = 1


class Command(BaseCommand):
    help = (
        "Score canasta hands from a JSON file (or - for standard input) and print the "
        "results as JSON. Exit status: 0 all scored, 2 a hand was refused, 1 not JSON."
    )
    # call_command(..., stdin=io.StringIO(...)) feeds "-" in tests.
    stealth_options = ("stdin",)
    # Scoring touches neither the database nor the URLs: other programs call this command
    # to score, so it starts without running the project's system checks.
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument(
            "file",
            help="A JSON file holding one hand or a list of hands, or - for standard input.",
        )

    def handle(self, *args, **options):
        path = options["file"]
        name = "Standard input" if path == "-" else path
        try:
            text = self._read(path, options)
        except OSError as error:
            self._fail(f"Cannot read {path}: {error.strerror or error}.")
        except UnicodeError:
            self._fail(f"{name} is not UTF-8 text; save it as UTF-8 JSON. Nothing was scored.")
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as error:
            where = (
                f" (line {error.lineno}, column {error.colno})" if hasattr(error, "lineno") else ""
            )
            self._fail(f"{name} is not valid JSON{where}; nothing was scored.")
        result, all_ok = score_request(data)
        self.stdout.write(json.dumps(result, indent=2))
        if not all_ok:
            raise SystemExit(EXIT_REFUSED)

    @staticmethod
    def _read(path: str, options: dict) -> str:
        """The input as text; raises UnicodeError for bytes that are not UTF-8, also
        when a text stream let them through as lone surrogates."""
        if path == "-":
            stream = options.get("stdin") or sys.stdin
            data = stream.buffer.read() if hasattr(stream, "buffer") else stream.read()
        else:
            with open(path, "rb") as handle:
                data = handle.read()
        if isinstance(data, bytes):
            return data.decode("utf-8")
        data.encode("utf-8")  # lone surrogates (undecodable bytes) raise here
        return data

    def _fail(self, message: str) -> None:
        self.stderr.write(" ".join(message.split()))
        raise SystemExit(EXIT_UNREADABLE)

"""club_statement (text and JSON) and import_payments (exit codes, --dry-run)."""

import datetime
import json
from decimal import Decimal

import pytest
from django.core.management import CommandError, call_command

from members.money.models import Entry
from members.money.services.ledger import add_charge, record_payment
from members.money.tests.test_import import bank_csv


def test_club_statement_json_has_exact_decimal_strings(club, ann, bob, capsys):
    add_charge(ann, Decimal("12.00"), "table", date=datetime.date(2026, 11, 5))
    record_payment(ann, Decimal("10.00"), "cash", date=datetime.date(2026, 11, 6))
    add_charge(bob, Decimal("3.00"), "table", date=datetime.date(2026, 12, 5))
    call_command("club_statement", club.slug, "--as-of", "2026-12-01", "--json")
    document = json.loads(capsys.readouterr().out)
    assert document["club"] == club.slug and document["currency"] == "USD"
    assert document["as_of"] == "2026-12-01"
    people = {p["name"]: p for p in document["people"]}
    assert people["Ann Adams"] == {
        "name": "Ann Adams",
        "number": "1001",
        "charges": "12.00",
        "payments": "10.00",
        "balance": "-2.00",
    }
    assert people["Bob Brown"]["balance"] == "0.00"  # his charge is after the date


def test_club_statement_text_and_a_bad_date(club, ann, capsys):
    call_command("club_statement", club.slug)
    assert "Ann Adams" in capsys.readouterr().out
    with pytest.raises(CommandError, match="not a date"):
        call_command("club_statement", club.slug, "--as-of", "01/12/2026")


def test_import_payments_exit_codes_and_dry_run(club, mapped, ann, bob, tmp_path, capsys):
    all_matched = tmp_path / "all.csv"
    all_matched.write_bytes(bank_csv([("02/12/2026", "5.00", "1001"), ("02/12/2026", "6", "1002")]))
    call_command("import_payments", club.slug, str(all_matched), "--dry-run")
    assert "Would write 2 payments, 11.00" in capsys.readouterr().out
    assert not Entry.objects.exists()
    call_command("import_payments", club.slug, str(all_matched))  # exit 0: returns
    assert Entry.objects.count() == 2

    some = tmp_path / "some.csv"
    some.write_bytes(bank_csv([("03/12/2026", "5.00", "1001"), ("03/12/2026", "9", "nobody")]))
    with pytest.raises(SystemExit) as exited:
        call_command("import_payments", club.slug, str(some), "--dry-run")
    assert exited.value.code == 2
    out = capsys.readouterr().out
    assert "no match line 3" in out and "Would write 1 payments" in out
    assert Entry.objects.count() == 2


def test_import_payments_refuses_a_bad_file(club, mapped, tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_bytes(bank_csv([("2026-12-02", "5.00", "1001")]))
    with pytest.raises(CommandError, match="not a date"):
        call_command("import_payments", club.slug, str(bad))
    assert not Entry.objects.exists()

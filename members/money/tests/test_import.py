"""The bank import: a preview that writes nothing, a confirm that writes every matched
line once, plain refusals for bad files, and no bank number kept anywhere."""

import datetime
from decimal import Decimal

import pytest
from django.urls import reverse

from members.money.models import BankImport, Entry, MoneyProfile
from members.money.services.errors import MoneyRefused
from members.money.services.imports import confirm_import, preview_import
from members.money.services.ledger import account_totals, add_charge, all_totals
from members.tests.factories import MemberFactory

ACCOUNT = "GB29NWBK60161331926819"
CARD = "4111 1111 1111 1111"


def bank_csv(lines) -> bytes:
    rows = ["Account number;Date;Amount;Reference;Balance"]
    rows += [f"{ACCOUNT};{d};{a};{r};999.00" for d, a, r in lines]
    return ("\n".join(rows) + "\n").encode()


@pytest.fixture
def members(db):
    return [
        MemberFactory(membership_number=str(100 + i), first_name=f"M{i}", last_name="Payer")
        for i in range(28)
    ]


def test_thirty_lines_two_unmatched_one_paying_for_two_reconcile_to_the_cent(mapped, members):
    # Each member owes 12.50; m0 pays for m1 too (her partner), so m1's charge is his.
    day = datetime.date(2026, 11, 19)
    MoneyProfile.objects.create(person=members[1], payer=members[0])
    for i, m in enumerate(members):
        account = members[0] if i == 1 else m
        add_charge(account, Decimal("12.50"), "table", date=day, attendee=m)
    lines = [("02/12/2026", "25.00", f"Club fees {members[0].membership_number} + partner")]
    lines += [
        ("02/12/2026", "12.50", f"member {m.membership_number} card {CARD}") for m in members[2:]
    ]
    lines += [("03/12/2026", "12.50", f"Payment {m.membership_number}") for m in members[2:3]]
    lines += [("03/12/2026", "40.00", "Unknown payer"), ("04/12/2026", "10.00", "ref 9999")]
    assert len(lines) == 30
    data = bank_csv(lines)

    preview = preview_import("statement.csv", data)
    assert len(preview.matched) == 28 and len(preview.unmatched) == 2
    assert not Entry.objects.payments().exists()  # the preview wrote nothing

    record, new = confirm_import(preview)
    again, new_again = confirm_import(preview_import("statement.csv", data))
    assert new and not new_again and again.pk == record.pk
    assert Entry.objects.payments().count() == 28
    assert record.total == Decimal("25.00") + 27 * Decimal("12.50")

    totals = all_totals()
    assert account_totals(members[1]).balance == Decimal("0.00")  # paid for by her partner
    assert account_totals(members[0]).balance == Decimal("0.00")
    assert account_totals(members[2]).balance == Decimal("12.50")  # paid twice: ahead
    charges = sum(t.charges for t in totals.values())
    payments = sum(t.payments for t in totals.values())
    matched_in_file = sum(Decimal(a) for _, a, _ in lines) - Decimal("50.00")
    assert charges == 28 * Decimal("12.50") and payments == matched_in_file


def test_no_bank_or_card_number_is_stored(mapped, members):
    data = bank_csv(
        [("02/12/2026", "12.50", f"{members[0].membership_number} card {CARD} {ACCOUNT}")]
    )
    confirm_import(preview_import("s.csv", data))
    stored = " ".join(f"{e.note} {e.reason}" for e in Entry.objects.all()) + " ".join(
        b.filename for b in BankImport.objects.all()
    )
    for number in (ACCOUNT, "60161331926819", CARD, CARD.replace(" ", ""), "1111"):
        assert number not in stored


@pytest.mark.parametrize(
    "data, words",
    [
        (bank_csv([("2026-12-02", "12.50", "100")]), "is not a date written like 31/12/2026"),
        (bank_csv([("02/12/2026", "-12.50", "100")]), "negative"),
        (b"PK\x03\x04not a csv", "not a CSV file"),
        (b"x" * (10 * 1024 * 1024), "too large"),
        (b"Date;Amount\n02/12/2026;5\n", "No line of the file names the columns"),
    ],
)
def test_bad_files_are_refused_in_plain_words_and_nothing_is_written(mapped, members, data, words):
    with pytest.raises(MoneyRefused, match=words):
        preview_import("bad.csv", data)
    assert not Entry.objects.exists() and not BankImport.objects.exists()


def test_an_unmapped_club_is_told_to_map_the_columns(rates):
    with pytest.raises(MoneyRefused, match="Map the bank file"):
        preview_import("s.csv", bank_csv([("02/12/2026", "1", "x")]))


def test_the_pages_preview_then_confirm_once(mapped, members, login, treasurer_user):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client = login(treasurer_user)
    data = bank_csv(
        [("02/12/2026", "12.50", members[0].membership_number), ("02/12/2026", "3", "?")]
    )
    upload = SimpleUploadedFile("s.csv", data, content_type="text/csv")
    response = client.post(reverse("money:import"), {"file": upload})
    assert response.status_code == 302 and response["Location"].endswith("/import/preview/")
    page = client.get(reverse("money:import_preview")).content.decode()
    assert "M0 Payer" in page and "matches nobody" in page
    assert not Entry.objects.exists()
    from members.money.bank import file_hash

    confirm = {"file_hash": file_hash(data)}
    assert client.post(reverse("money:import_confirm"), confirm).status_code == 302
    assert client.post(reverse("money:import_confirm"), confirm).status_code == 302  # double tap
    assert Entry.objects.count() == 1 and BankImport.objects.count() == 1


@pytest.mark.parametrize(
    "data, words",
    [
        (bank_csv([("2026-12-02", "1", "100")]), "is not a date written like 31/12/2026"),
        (bank_csv([("02/12/2026", "-12.50", "100")]), "negative"),
        (bank_csv([("02/12/2026", "1", "100")]) * (10 * 1024 * 1024 // 90), "too large"),
    ],
)
def test_a_bad_file_on_the_page_is_refused(mapped, members, login, treasurer_user, data, words):
    """Through the page: a wrong date format, a negative amount, a file of 10 MB get a
    plain refusal on the upload page, and nothing is written or kept for a preview."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    client = login(treasurer_user)
    upload = SimpleUploadedFile("s.csv", data, content_type="text/csv")
    response = client.post(reverse("money:import"), {"file": upload}, follow=True)
    assert response.status_code == 200
    assert response.redirect_chain == []  # stays on the upload page: no preview
    assert words in response.content.decode()
    assert not Entry.objects.exists() and not BankImport.objects.exists()
    assert not any(key.startswith("money_bank_preview") for key, _v in client.session.items())


def test_the_preview_writes_dates_the_languages_way(mapped, members, login, treasurer_user, club):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client = login(treasurer_user)
    data = bank_csv([("02/12/2026", "12.50", members[0].membership_number)])
    client.post(reverse("money:import"), {"file": SimpleUploadedFile("s.csv", data)})
    page = client.get(reverse("money:import_preview")).content.decode()
    assert "2026-12-02" not in page
    assert "12/02/2026" in page  # English's short date
    club.language_code = "es"
    club.save()
    page = client.get(reverse("money:import_preview")).content.decode()
    assert "2/12/2026" in page and "2026-12-02" not in page  # Spanish: day first


def test_a_reference_matches_whole_words_only(mapped, members):
    MoneyProfile.objects.create(person=members[0], reference="ANNA")
    data = bank_csv([("02/12/2026", "5", "JOANNAS gift"), ("02/12/2026", "6", "from anna")])
    preview = preview_import("s.csv", data)
    assert [line.amount for line in preview.matched] == ["6.00"]


def test_a_short_reference_is_refused_and_names_nobody(mapped, members):
    from members.money.forms import ProfileForm

    form = ProfileForm({"reference": "ANN"}, instance=MoneyProfile(person=members[0]))
    assert not form.is_valid() and "at least 4 characters" in str(form.errors)
    MoneyProfile.objects.create(person=members[0], reference="ANN")  # from before
    preview = preview_import("s.csv", bank_csv([("02/12/2026", "5", "from ann")]))
    assert not preview.matched


def test_an_overlapping_statement_warns_and_a_line_can_be_left_out(
    mapped, members, login, treasurer_user
):
    from members.money.bank import file_hash
    from members.money.services.ledger import record_payment

    record_payment(members[0], Decimal("12.50"), "bank", date=datetime.date(2026, 12, 2))
    data = bank_csv(
        [
            ("02/12/2026", "12.50", members[0].membership_number),
            ("02/12/2026", "7.00", members[1].membership_number),
            ("02/12/2026", "8.00", members[2].membership_number),
        ]
    )
    preview = preview_import("s.csv", data)
    assert [bool(line.warning) for line in preview.matched] == [True, False, False]
    client = login(treasurer_user)
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.post(reverse("money:import"), {"file": SimpleUploadedFile("s.csv", data)})
    page = client.get(reverse("money:import_preview")).content.decode()
    assert "overlapping" in page
    confirm = {"file_hash": file_hash(data), "choosing": "1", "line": ["3"]}
    assert client.post(reverse("money:import_confirm"), confirm).status_code == 302
    bank = Entry.objects.filter(bank_import__isnull=False)
    assert [(e.person, e.amount) for e in bank] == [(members[1], Decimal("7.00"))]

"""The money pages in the site's persona table (``clubsite/tests/test_personas.py``
adds them to ``CASES``) and in its CSRF-with-token table
(``clubsite/tests/test_csrf_and_leaks.py`` adds them to ``FORMS`` and ``TYPED``).

The rows a money page needs (a charge, a statement run, a renewal) are made the first
time its address is asked for, in the club of the world's people (two worlds, two
clubs: each its own)."""

from __future__ import annotations

import datetime
from decimal import Decimal

from django.urls import reverse

from members.money.models import Entry, RenewalPeriod, StatementRun


def _charge(w) -> Entry:
    club = w.ann.club
    found = Entry.objects.with_scopes_disabled().filter(club=club, note="persona charge").first()
    return found or Entry.objects.with_scopes_disabled().create(
        club=club,
        person=w.olga,
        kind="charge",
        source="table",
        amount=Decimal("5.00"),
        date=w.day.date,
        note="persona charge",
    )


def _run(w) -> StatementRun:
    club = w.ann.club
    found = StatementRun.objects.with_scopes_disabled().filter(club=club).first()
    return found or StatementRun.objects.with_scopes_disabled().create(
        club=club, start=w.day.date, end=w.day.date, key=f"persona-{club.pk}"
    )


def _period(w) -> RenewalPeriod:
    club = w.ann.club
    found = RenewalPeriod.objects.with_scopes_disabled().filter(club=club).first()
    return found or RenewalPeriod.objects.with_scopes_disabled().create(
        club=club, name="2030-31", paid_until=datetime.date(2030, 12, 31), key=f"persona-{club.pk}"
    )


def _r(name, *args):
    return reverse(name, args=args)


def money_cases(Case, E, LOGIN, REDIRECT) -> dict:
    officers = E(200, 403, LOGIN, LOGIN)
    officers_405 = E(405, 403, LOGIN, LOGIN)
    officers_redirect = E(REDIRECT, 403, LOGIN, LOGIN)
    return {
        "money:balances": Case(lambda w: _r("money:balances"), officers, officers_405),
        "money:account": Case(lambda w: _r("money:account", w.olga.pk), officers, officers_405),
        "money:pay": Case(
            lambda w: _r("money:pay", w.olga.pk),
            officers_405,
            officers_redirect,
            lambda w: {"amount": "5", "source": "cash", "date": "2025-04-03", "key": "persona"},
            changes=True,
        ),
        "money:profile": Case(
            lambda w: _r("money:profile", w.olga.pk),
            officers_405,
            officers_redirect,
            lambda w: {"rate": "reduced"},
            changes=True,
        ),
        "money:treasurer_role": Case(
            lambda w: _r("money:treasurer_role", w.mary.pk),
            E(405, 403, LOGIN, LOGIN),
            E(REDIRECT, 403, LOGIN, LOGIN),
            lambda w: {"action": "add"},
            changes=True,
        ),
        "money:change": Case(
            lambda w: _r("money:change", _charge(w).pk),
            officers_405,
            officers_redirect,
            lambda w: {"amount": "2", "reason": "Came late"},
            changes=True,
        ),
        "money:take_back": Case(
            lambda w: _r("money:take_back", _charge(w).pk),
            officers_405,
            officers_redirect,
            lambda w: {"reason": "Typed wrong"},
            changes=True,
        ),
        "money:import": Case(lambda w: _r("money:import"), officers, officers, changes=True),
        "money:import_preview": Case(
            lambda w: _r("money:import_preview"), officers_redirect, officers_405
        ),
        "money:import_confirm": Case(
            lambda w: _r("money:import_confirm"),
            officers_405,
            officers_redirect,
            lambda w: {"file_hash": "0" * 64},
        ),
        "money:settings": Case(
            lambda w: _r("money:settings"),
            officers,
            officers,
            lambda w: {"currency": ""},  # refused with a message: the currency is needed
            changes=True,
        ),
        "money:day_rate": Case(
            lambda w: _r("money:day_rate", w.day.pk),
            officers,
            officers_redirect,
            lambda w: {"free": "on"},
            changes=True,
        ),
        "money:statements": Case(
            lambda w: _r("money:statements"),
            officers,
            officers_redirect,
            lambda w: {"start": "2025-04-01", "end": "2025-04-30", "key": "persona"},
            changes=True,
        ),
        "money:statement_run": Case(
            lambda w: _r("money:statement_run", _run(w).pk), officers, officers_405
        ),
        "money:statement_print": Case(
            lambda w: _r("money:statement_print", _run(w).pk), officers, officers_405
        ),
        "money:dues": Case(
            lambda w: _r("money:dues"),
            officers,
            officers,
            lambda w: {"action": "type", "type-name": "", "type-rate": ""},
            changes=True,
        ),
        "money:renewal": Case(lambda w: _r("money:renewal", _period(w).pk), officers, officers_405),
        "money:renewal_pay": Case(
            lambda w: _r("money:renewal_pay", _period(w).pk),
            officers_405,
            officers_redirect,
            lambda w: {"person": w.olga.pk, "amount": "10", "source": "cash", "key": "persona"},
            changes=True,
        ),
        "money:renewal_remind": Case(
            lambda w: _r("money:renewal_remind", _period(w).pk),
            officers_405,
            officers_redirect,
            changes=True,
        ),
        "money:renewal_letters": Case(
            lambda w: _r("money:renewal_letters", _period(w).pk), officers, officers_405
        ),
        # The officer of the world has no Person record: no money of their own.
        "money:me": Case(
            lambda w: _r("money:me"), E(404, 200, LOGIN, LOGIN), E(405, 405, LOGIN, LOGIN)
        ),
    }


def money_forms(REDIRECT) -> dict:
    """(persona, the page with the form, htmx?, the outcome) per money form."""

    def account(w):
        _charge(w)  # the line whose buttons are tried
        return reverse("money:account", args=[w.olga.pk])

    return {
        "money:pay": ("officer", account, False, REDIRECT),
        "money:profile": ("officer", account, False, REDIRECT),
        "money:change": ("officer", account, False, REDIRECT),
        "money:treasurer_role": (
            "officer",
            lambda w: reverse("members:person", args=[w.mary.pk]),
            False,
            REDIRECT,
        ),
        "money:take_back": ("officer", account, False, REDIRECT),
        "money:import": ("officer", lambda w: reverse("money:import"), False, 200),
        "money:settings": ("officer", lambda w: reverse("money:settings"), False, REDIRECT),
        "money:day_rate": (
            "officer",
            lambda w: reverse("money:day_rate", args=[w.day.pk]),
            False,
            REDIRECT,
        ),
        "money:statements": ("officer", lambda w: reverse("money:statements"), False, REDIRECT),
        "money:dues": ("officer", lambda w: reverse("money:dues"), False, 200),
        "money:renewal_pay": (
            "officer",
            lambda w: reverse("money:renewal", args=[_period(w).pk]),
            False,
            REDIRECT,
        ),
        "money:renewal_remind": (
            "officer",
            lambda w: reverse("money:renewal", args=[_period(w).pk]),
            False,
            REDIRECT,
        ),
    }


def money_typed() -> dict:
    return {
        "money:pay": lambda w: {"amount": "5.00"},
        "money:change": lambda w: {"reason": "Came late"},
        "money:take_back": lambda w: {"reason": "Typed wrong"},
        "money:renewal_pay": lambda w: {"person": w.olga.pk, "amount": "10"},
    }


def money_data_words() -> list[str]:
    """The money rows' own words on its pages (for the catalogs' test: data, not the
    site's words): the currency code, renewals' and membership types' names."""
    from members.money.models import MembershipType, MoneySettings
    from members.money.models.settings import default_currency

    texts = [default_currency()]
    texts += list(MoneySettings.objects.with_scopes_disabled().values_list("currency", flat=True))
    texts += list(RenewalPeriod.objects.with_scopes_disabled().values_list("name", flat=True))
    texts += list(MembershipType.objects.with_scopes_disabled().values_list("name", flat=True))
    return texts


#: The money pages without an id of a club's row in their address (the isolation test's
#: OWN_PAGES): at club A they are A's own pages.
MONEY_OWN_PAGES = {
    "money:balances",
    "money:import",
    "money:import_preview",
    "money:import_confirm",
    "money:settings",
    "money:statements",
    "money:dues",
    "money:me",
}

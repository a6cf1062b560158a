"""Amounts as the reader's language writes them, with the club's currency code, and a
ledger line's label; the door's "lapsed" mark."""

from __future__ import annotations

from decimal import Decimal

from django import template
from django.utils.formats import number_format
from django.utils.translation import gettext as _

register = template.Library()


@register.filter
def money(value, currency: str = "") -> str:
    """12.5 → '12.50 USD' (the reader's decimal mark; the minus sign kept)."""
    if value is None or value == "":
        return "—"
    text = number_format(Decimal(value), decimal_pos=2, force_grouping=True)
    return f"{text} {currency}".strip()


@register.simple_tag
def entry_label(entry) -> str:
    """What a line is, in words: 'Table money, Thu 19 Nov (Ann Adams)'."""
    if entry.kind == "reversal":
        label = _("Taken back: %(reason)s") % {"reason": entry.reason}
    else:
        label = str(entry.get_source_display())
        if entry.note:
            label = f"{label} · {entry.note}"
    if entry.attendee_id is not None:
        label = _("%(what)s, for %(name)s") % {"what": label, "name": entry.attendee.full_name}
    return label


def signed(entry) -> Decimal:
    """A line's effect on the balance: a payment adds, a charge takes away, a reversal
    undoes its entry."""
    if entry.kind == "payment":
        return entry.amount
    if entry.kind == "charge":
        return -entry.amount
    return -entry.amount if entry.reverses.kind == "payment" else entry.amount


@register.simple_tag
def entry_signed(entry, currency: str = "") -> str:
    return money(signed(entry), currency)


@register.simple_tag
def dues_lapsed(person, day) -> bool:
    """Whether ``person``'s dues lapsed (past the club's grace) on ``day``'s date. The
    club's paid-until dates are read once per page (kept on ``day``): two queries for a
    whole list of search results, whatever its length."""
    from members.money.models import MoneyProfile, MoneySettings
    from members.money.services.table import dues_lapsed as lapsed

    if person.is_guest:
        return False
    kept = getattr(day, "_money_dues", None)
    if kept is None:
        rows = MoneyProfile.objects.filter(paid_until__isnull=False).only("person", "paid_until")
        kept = ({p.person_id: p for p in rows}, MoneySettings.current().grace_days)
        day._money_dues = kept
    profiles, grace = kept
    return lapsed(profiles.get(person.pk), day.date, grace)


@register.simple_tag
def is_treasurer_login(person) -> bool:
    """Whether ``person``'s login is a treasurer of the active club."""
    from members.models import ClubRole

    if person.user_id is None:
        return False
    return ClubRole.objects.filter(user_id=person.user_id, role=ClubRole.Role.TREASURER).exists()

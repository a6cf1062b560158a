"""Money's part of merging two records of one person (members/services/merge.py calls
it inside the merge's transaction, before the rows move)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from members.models import Person, SignIn
from members.money.models import Entry, MoneyProfile
from members.money.services.table import undo_sign_in_charge


def take_back_merged_sign_in(signin: SignIn, *, by=None) -> None:
    """A same-day sign-in made one with the kept record's: its table money is taken
    back, so the day is charged once."""
    undo_sign_in_charge(signin, by=by, reason=_("Two records of one person merged."))


def merge_money(kept: Person, removed: Person, moved: dict, *, by=None) -> None:
    """Before the rows move: a charge of one of them for the other loses its attendee
    (they are one person now), and when both have money settings the kept record's
    stay (the removed one's are dropped, its history kept). Ledger entries then move
    with every other row."""
    Entry._base_manager.filter(person=kept, attendee=removed).update(attendee=None)
    Entry._base_manager.filter(person=removed, attendee=kept).update(attendee=None)
    if MoneyProfile._base_manager.filter(person=kept).exists():
        dropped = MoneyProfile._base_manager.filter(person=removed).first()
        if dropped is not None:
            if by is not None:
                dropped._history_user = by
            dropped.delete()
            moved[_("money settings of the removed record (the kept record's were kept)")] = 1

"""django-simple-history on club-owned models, scoped like the models themselves.

:func:`club_history` is ``HistoricalRecords`` with both of its query paths club-scoped:
the ``history`` manager (``Hand.history.all()``, and a row's own ``hand.history``)
through django-simple-history's ``history_manager`` hook, and the historical model's
default manager (``HistoricalHand.objects``) through an abstract base (``bases``).
Inside a club's scope they see that club's history rows only; outside any scope they
refuse with ``ScopeError``; with scopes disabled (the admin's history pages) they see
every club's. The historical rows carry the model's ``club`` column (copied with the
model's fields), so the filter is on their own table. Abstract bases are left out of
migrations, so the history tables are unchanged.
"""

from __future__ import annotations

from django.db import models
from simple_history.manager import HistoricalQuerySet, HistoryManager
from simple_history.models import HistoricalRecords

from members.clubs.scope import (
    ClubScoped,
    club_manager,
    club_rows,
    own_or_shared_rows,
    refusing,
    scoped,
    shared_manager,
)


class ClubHistory(models.Model):
    """The base of a club-owned model's historical model: its default manager is
    club-scoped."""

    objects = club_manager()

    class Meta:
        abstract = True


class SharedHistory(models.Model):
    """The base of the historical model of a model with shared rows (the rule sets):
    a club sees its own rows' history and the shared rows'."""

    objects = shared_manager()

    class Meta:
        abstract = True


def _history_manager(restrict):
    disabled = refusing(HistoricalQuerySet)

    class ClubHistoryManager(ClubScoped, HistoryManager):
        def get_super_queryset(self):
            return scoped(super().get_super_queryset(), restrict, disabled)

    return ClubHistoryManager


def club_history(*, shared: bool = False, **options) -> HistoricalRecords:
    """``HistoricalRecords(**options)`` for a club-owned model (``shared``: one whose
    rows may be shared by every club, as its manager is ``shared_manager``)."""
    return HistoricalRecords(
        history_manager=_history_manager(own_or_shared_rows if shared else club_rows()),
        bases=(SharedHistory if shared else ClubHistory,),
        **options,
    )

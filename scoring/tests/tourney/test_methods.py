"""Every event and ladder page answers only the methods it is for: the pages GET, the
forms GET and POST, the buttons POST; anything else is 405 (never a page drawn or a
form handled for a PUT)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from members.models import Table
from scoring.tourney.services.ladders import save_ladder

pytestmark = pytest.mark.django_db

METHODS = ("get", "post", "put", "patch", "delete")


def _urls(day, event, ladder, table) -> dict[str, set[str]]:
    return {
        reverse("scoring:event", args=[day.pk]): {"get"},
        reverse("scoring:event_edit", args=[day.pk]): {"get", "post"},
        reverse("scoring:event_action", args=[event.pk, "pause"]): {"post"},
        reverse("scoring:event_ranking", args=[event.pk]): {"get"},
        reverse("scoring:event_prizes", args=[event.pk]): {"get"},
        reverse("scoring:event_follow", args=[table.pk]): {"post"},
        reverse("scoring:event_arrive", args=[table.pk]): {"post"},
        reverse("scoring:ladders"): {"get"},
        reverse("scoring:ladder", args=[ladder.pk]): {"get"},
        reverse("scoring:ladder_new"): {"get", "post"},
        reverse("scoring:ladder_edit", args=[ladder.pk]): {"get", "post"},
    }


def test_each_page_answers_only_its_methods(officer_client, day, event, seated):
    ladder = save_ladder(None, days=[day], name="Method ladder", min_days=1, ranked_by="total")
    table = Table.objects.get(number=1)
    wrong = []
    for url, allowed in _urls(day, event, ladder, table).items():
        for method in METHODS:
            status = getattr(officer_client, method)(url).status_code
            if (status == 405) == (method in allowed):
                wrong.append((url, method, status))
    assert wrong == []

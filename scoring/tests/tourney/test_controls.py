"""Every link on the event and ladder pages is a control at least 44 px tall: the back
links and the form's links sit in ``.crumbs``, which tourney.css (loaded by each page)
makes 44 px tall, or are buttons."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from scoring.tourney.services.ladders import save_ladder

pytestmark = pytest.mark.django_db

CSS = Path(settings.BASE_DIR) / "static" / "css" / "tourney.css"
TALL = {"crumbs", "button"}


def _pages(day, event, ladder):
    return [
        reverse("scoring:event", args=[day.pk]),
        reverse("scoring:event_edit", args=[day.pk]),
        reverse("scoring:event_ranking", args=[event.pk]),
        reverse("scoring:event_prizes", args=[event.pk]),
        reverse("scoring:ladders"),
        reverse("scoring:ladder", args=[ladder.pk]),
        reverse("scoring:ladder_edit", args=[ladder.pk]),
    ]


def _short_links(html: str) -> list[str]:
    """The page's links (in its main part) that are neither buttons nor in a
    ``<p class="crumbs">``."""
    main = html[html.index("<main") : html.index("</main>")]
    short = []
    for paragraph in re.finditer(r"<p( class=\"([^\"]*)\")?>(.*?)</p>", main, re.S):
        classes = set((paragraph.group(2) or "").split())
        for link in re.finditer(r"<a\b([^>]*)>", paragraph.group(3)):
            link_classes = set(re.findall(r'class="([^"]*)"', link.group(1))[:1] or [""])
            link_classes = set(" ".join(link_classes).split())
            if not (classes | link_classes) & TALL:
                short.append(paragraph.group(0)[:120])
    return short


def test_the_crumbs_links_are_44_px_tall():
    css = CSS.read_text()
    rule = re.search(r"\.crumbs a \{([^}]*)\}", css)
    assert rule is not None
    assert "min-height: 44px" in rule.group(1) and "inline-flex" in rule.group(1)


def test_every_link_of_the_event_and_ladder_pages_is_tall_enough(officer_client, day, event):
    ladder = save_ladder(None, days=[day], name="Tap ladder", min_days=1, ranked_by="total")
    for url in _pages(day, event, ladder):
        response = officer_client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert "css/tourney.css" in html, url
        assert _short_links(html) == [], url

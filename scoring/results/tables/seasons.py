"""The officers' list of seasons, each with a link to its standings."""

from __future__ import annotations

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from scoring.results.tables.base import TEMPLATE, DateColumn, Table


class SeasonTable(Table):
    name = tables.Column(
        verbose_name=_("Season"), linkify=("scoring:season_edit", {"pk": tables.A("pk")})
    )
    start = DateColumn(verbose_name=_("Starts"))
    end = DateColumn(verbose_name=_("Ends"))
    standings = tables.Column(accessor="pk", verbose_name="", orderable=False)

    class Meta:
        template_name = TEMPLATE
        per_page = 50
        orderable = True
        empty_text = _("No seasons yet: add the first one.")

    def render_standings(self, value):
        return format_html(
            '<a href="{}?season={}">{}</a>', reverse("scoring:standings"), value, _("Standings")
        )

    def value_standings(self, value):
        return ""

"""The people list (django-tables2): sortable, paginated."""

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from members.models import Person

# Columns hidden on a phone (members.css), shown from tablet width up.
WIDE_ONLY = {"td": {"class": "wide-only"}, "th": {"class": "wide-only"}}


class PersonTable(tables.Table):
    name = tables.Column(
        accessor="last_name",
        verbose_name=_("Name"),
        order_by=("last_name", "first_name"),
        linkify=lambda record: reverse("members:person", args=[record.pk]),
    )
    membership_number = tables.Column(verbose_name=_("Number"), default="—")
    kind = tables.Column(verbose_name=_("Kind"))
    status = tables.Column(verbose_name=_("Status"))
    visits = tables.Column(
        verbose_name=_("Visits"), attrs={"td": {"class": "num"}, "th": {"class": "num"}}
    )
    email = tables.EmailColumn(verbose_name=_("Email"), default="", attrs=WIDE_ONLY)
    phone = tables.Column(verbose_name=_("Phone"), default="", attrs=WIDE_ONLY)
    joined = tables.DateColumn(
        verbose_name=_("Joined"), format="Y-m-d", default="", attrs=WIDE_ONLY
    )

    class Meta:
        model = Person
        fields = (
            "name",
            "membership_number",
            "kind",
            "status",
            "visits",
            "email",
            "phone",
            "joined",
        )
        order_by = ("name",)
        attrs = {"class": "table people-table"}
        empty_text = _("Nobody matches. Clear the filters, or add a person.")

    def render_name(self, record):
        return record.full_name

    def render_kind(self, record):
        if record.is_guest and record.brought_by_id:
            return format_html(gettext("Guest of {}"), record.brought_by.full_name)
        return record.get_kind_display()

    def render_status(self, record):
        if record.is_lapsed:
            return format_html('<span class="badge badge-warn">{}</span>', gettext("Lapsed"))
        return gettext("Active")

    def value_name(self, record):
        return record.full_name

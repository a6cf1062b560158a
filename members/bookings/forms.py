"""The bookings app's forms: a booking (a member's or an officer's), the club's booking
settings, an announcement, a substitute, a call to substitutes, a partner message."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from members.bookings.models import Announcement, BookingSettings
from members.clubs.scope import ClubChoiceField
from members.forms import DATE_INPUT
from members.models import Person

WEEKDAYS = [
    (0, _("Monday")),
    (1, _("Tuesday")),
    (2, _("Wednesday")),
    (3, _("Thursday")),
    (4, _("Friday")),
    (5, _("Saturday")),
    (6, _("Sunday")),
]


def _members():
    return Person.objects.current().members().order_by("first_name", "last_name")


class BookForm(forms.Form):
    """A member's booking: alone (nothing filled), with a member as partner, or with a
    guest's name."""

    partner = ClubChoiceField(
        _members,
        required=False,
        label=_("Partner"),
        empty_label=_("— choose a member —"),
        error_messages={"invalid_choice": _("Choose your partner from the club's members.")},
    )
    guest_name = forms.CharField(max_length=160, required=False, label=_("Guest's name"))

    def clean(self):
        data = super().clean()
        if data.get("partner") and (data.get("guest_name") or "").strip():
            raise forms.ValidationError(_("Book with a member or with a guest, not both."))
        return data


class OfficerBookForm(BookForm):
    """An officer adds someone to a day's list."""

    person = ClubChoiceField(
        _members,
        label=_("Member"),
        empty_label=_("— choose a member —"),
        error_messages={"invalid_choice": _("Choose a member of the club.")},
    )
    field_order = ["person", "partner", "guest_name"]


class SettingsForm(forms.ModelForm):
    cutoff_weekday = forms.TypedChoiceField(
        choices=WEEKDAYS,
        coerce=int,
        label=_("Weekday of the cut-off"),
        help_text=_("Only for a weekday cut-off: members can cancel until that day ends."),
    )

    class Meta:
        model = BookingSettings
        fields = [
            "table_cap",
            "play_time",
            "cutoff",
            "cutoff_weekday",
            "cutoff_hours",
            "cutoff_message",
            "guests_allowed",
            "seat_partners_together",
        ]
        widgets = {"play_time": forms.TimeInput(attrs={"type": "time"}, format="%H:%M")}
        labels = {
            "table_cap": _("Tables a day takes bookings for"),
            "play_time": _("Play starts at"),
            "cutoff": _("Cut-off for cancelling"),
            "cutoff_hours": _("Hours before play"),
            "cutoff_message": _("What a member who cancels too late is told"),
            "guests_allowed": _("Members may book a guest"),
            "seat_partners_together": _("The draw seats booked partners together"),
        }
        help_texts = {
            "play_time": _("When play starts on a club day."),
            "seat_partners_together": _("Partners booked together face each other at a table."),
            "guests_allowed": "",
            "table_cap": _("Four people a table. Leave it empty for no cap."),
            "cutoff_hours": _("Only for a cut-off in hours: at most 336 (two weeks)."),
            "cutoff_message": _("Optional; the site's own words when empty."),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Hours matter only to a cut-off in hours (checked in clean()).
        self.fields["cutoff_hours"].required = False

    def clean_cutoff_hours(self):
        hours = self.cleaned_data["cutoff_hours"]
        if hours is not None and hours > 336:
            raise forms.ValidationError(_("Type a number of hours from 0 to 336."))
        return hours

    def clean(self):
        data = super().clean()
        if "cutoff_hours" in data and data["cutoff_hours"] is None:
            if data.get("cutoff") == BookingSettings.Cutoff.HOURS:
                self.add_error("cutoff_hours", _("Type a number of hours from 0 to 336."))
            else:
                # Another kind of cut-off: the hours stay as they were.
                data["cutoff_hours"] = self.instance.cutoff_hours
        return data


class AnnouncementForm(forms.ModelForm):
    key = forms.CharField(widget=forms.HiddenInput, max_length=64)
    mail = forms.BooleanField(
        required=False, initial=True, label=_("E-mail it to the members who asked for news")
    )

    class Meta:
        model = Announcement
        fields = ["kind", "title", "body", "first_day", "last_day"]
        widgets = {
            "first_day": DATE_INPUT,
            "last_day": DATE_INPUT,
            "body": forms.Textarea(attrs={"rows": 4}),
        }
        labels = {
            "kind": _("What it is about"),
            "title": _("Title"),
            "body": _("Text"),
            "first_day": _("Date"),
            "last_day": _("Last date (if several days)"),
        }
        help_texts = {
            "first_day": _("The date it is about; it shows until then."),
            "last_day": _("Optional: it shows until this date."),
        }

    def clean(self):
        data = super().clean()
        first, last = data.get("first_day"), data.get("last_day")
        if first and last and last < first:
            self.add_error("last_day", _("The last date comes on or after the first."))
        return data


class SubstituteForm(forms.Form):
    person = ClubChoiceField(
        lambda: Person.objects.current().order_by("first_name", "last_name"),
        label=_("Person"),
        empty_label=_("— choose a person —"),
        error_messages={"invalid_choice": _("Choose a person on the club's records.")},
    )
    note = forms.CharField(max_length=120, required=False, label=_("Note (e.g. which days)"))


class CallForm(forms.Form):
    key = forms.CharField(widget=forms.HiddenInput, max_length=64)
    message = forms.CharField(
        max_length=1000,
        required=False,
        label=_("A few words for them (optional)"),
        widget=forms.Textarea(attrs={"rows": 3}),
    )


class PartnerMessageForm(forms.Form):
    key = forms.CharField(widget=forms.HiddenInput, max_length=64)
    to = forms.IntegerField(widget=forms.HiddenInput)
    text = forms.CharField(
        max_length=500, label=_("Your message"), widget=forms.Textarea(attrs={"rows": 3})
    )

"""Forms: parse and check what people type; the services do the rest."""

from __future__ import annotations

from django import forms
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django_scopes.forms import SafeModelChoiceField

from members.clubs.scope import ClubChoiceField
from members.draw import SIT_OUT, THREES
from members.emails import MemberEmailField
from members.models import ClubDay, Person
from members.names import tidy_name
from members.roster import read as roster_read
from members.roster.clean import clean_number
from members.roster.dates import AUTO, DAY_FIRST, MONTH_FIRST, usual_order

DATE_INPUT = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


class DayForm(forms.ModelForm):
    class Meta:
        model = ClubDay
        fields = ["date", "title"]
        widgets = {"date": DATE_INPUT}
        labels = {"date": _("Date"), "title": _("Title")}
        help_texts = {"title": _("Optional, e.g. “Thursday afternoon”.")}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if not self.is_bound and not self.initial.get("date"):
            self.initial["date"] = timezone.localdate()


class PersonForm(forms.ModelForm):
    """Add or edit a member or a guest. Guests have no membership number: a guest who
    joins is converted with “Make a member”, which keeps their history."""

    class Meta:
        model = Person
        fields = [
            "kind",
            "membership_number",
            "first_name",
            "last_name",
            "email",
            "phone",
            "status",
            "joined",
            "brought_by",
            "notes",
        ]
        widgets = {
            "kind": forms.RadioSelect,
            "joined": DATE_INPUT,
            "notes": forms.Textarea(attrs={"rows": 3}),
            "phone": forms.TextInput(attrs={"type": "tel", "autocomplete": "off"}),
        }
        labels = {
            "brought_by": _("Brought by (for a guest)"),
            "kind": _("Member or guest"),
            "membership_number": _("Membership number"),
            "first_name": _("First name"),
            "last_name": _("Last name"),
            "email": _("Email"),
            "phone": _("Phone"),
            "status": _("Status"),
            "joined": _("Joined"),
            "notes": _("Notes"),
        }
        help_texts = {
            "joined": _("Date the member joined."),
            "notes": _("Anything officers should know. At most 2,000 characters."),
        }
        # The choices are the club's, set when the form is made (see __init__).
        field_classes = {"brought_by": SafeModelChoiceField, "email": MemberEmailField}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        members = Person.objects.current().members().order_by("last_name", "first_name")
        if self.instance.pk:
            members = members.exclude(pk=self.instance.pk)
        self.fields["brought_by"].queryset = members
        self.fields["brought_by"].required = False
        self.fields["brought_by"].empty_label = _("— nobody (a member) —")
        self.fields["brought_by"].help_text = _("Guests only: the member who first brought them.")
        self.fields["membership_number"].help_text = _("Members only: the number on their card.")
        if self.instance.pk:
            # Kind changes through "Make a member" (keeps history) or a merge.
            del self.fields["kind"]
            if self.instance.is_guest:
                for name in ("membership_number", "status", "joined"):
                    del self.fields[name]
            else:
                del self.fields["brought_by"]

    def _tidy(self, name: str) -> str:
        # Tidied as the roster import and the door tidy a name, when it is typed here:
        # a name on file is never rewritten by an edit of something else.
        value = self.cleaned_data.get(name) or ""
        if self.instance.pk and value == getattr(self.instance, name):
            return value
        return tidy_name(value)

    def clean_first_name(self):
        return self._tidy("first_name")

    def clean_last_name(self):
        return self._tidy("last_name")

    def clean_membership_number(self):
        # Cleaned as the roster importer cleans it ("#1234", "1234.0" → "1234"), so
        # the door search and a later import find this member by number.
        number = clean_number(self.cleaned_data.get("membership_number"))
        if not number:
            return None
        taken = Person.objects.filter(membership_number=number).exclude(pk=self.instance.pk)
        other = taken.first()
        if other is not None:
            raise forms.ValidationError(
                gettext("Number %(number)s already belongs to %(name)s. Check the card.")
                % {"number": number, "name": other.full_name}
            )
        return number

    def clean(self):
        data = super().clean()
        kind = data.get("kind") or self.instance.kind
        if kind == Person.Kind.MEMBER:
            if "membership_number" in self.fields and not data.get("membership_number"):
                self.add_error("membership_number", gettext("A member needs a membership number."))
            data["brought_by"] = None
        elif kind == Person.Kind.GUEST:
            data["membership_number"] = None
            if "brought_by" in self.fields and not data.get("brought_by"):
                self.add_error("brought_by", gettext("Choose the member who brought this guest."))
        return data


class ConvertGuestForm(forms.Form):
    membership_number = forms.CharField(
        max_length=20,
        label=_("Membership number"),
        help_text=_("The number on their new membership card."),
    )
    email = MemberEmailField(required=False, label=_("Email"))
    phone = forms.CharField(
        max_length=40,
        required=False,
        label=_("Phone"),
        widget=forms.TextInput(attrs={"type": "tel"}),
    )
    joined = forms.DateField(
        required=False, widget=DATE_INPUT, label=_("Joined"), help_text=_("Blank means today.")
    )


class SearchForm(forms.Form):
    q = forms.CharField(
        required=False,
        max_length=80,
        label=_("Membership number or name"),
        widget=forms.TextInput(
            attrs={
                "type": "search",
                "autocomplete": "off",
                "autocapitalize": "none",
                "spellcheck": "false",
                "enterkeyhint": "search",
            }
        ),
    )


class SignInForm(forms.Form):
    person = ClubChoiceField(
        lambda: Person.objects.current(),
        error_messages={"invalid_choice": _("That person was not found; search again.")},
    )
    card_shown = forms.BooleanField(required=False)
    brought_by = ClubChoiceField(
        lambda: Person.objects.current().members(),
        required=False,
        error_messages={"invalid_choice": _("Choose the member who brought the guest.")},
    )


class GuestForm(forms.Form):
    first_name = forms.CharField(max_length=80, label=_("Guest's first name"))
    last_name = forms.CharField(max_length=80, required=False, label=_("Guest's last name"))
    brought_by = ClubChoiceField(
        lambda: Person.objects.none(),
        required=False,
        label=_("Came with"),
        empty_label=_("— choose a member signed in today —"),
    )
    brought_by_number = forms.CharField(
        max_length=80,
        required=False,
        label=_("…or that member's number or name"),
        help_text=_("If the member is not signed in (yet)."),
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    allow_same_name = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, day=None, **kwargs):
        super().__init__(*args, **kwargs)
        if day is not None:
            self.fields["brought_by"].queryset = (
                Person.objects.current()
                .members()
                .filter(signins__day=day)
                .order_by("first_name", "last_name")
            )

    def clean(self):
        data = super().clean()
        member = data.get("brought_by")
        text = (data.get("brought_by_number") or "").strip()
        if member is None and text:
            members = Person.objects.current().members()
            member = members.filter(membership_number=text).first()
            if member is None:
                matches = list(Person.objects.search(text).members()[:6])
                if len(matches) == 1:
                    member = matches[0]
                elif not matches:
                    self.add_error(
                        "brought_by_number",
                        gettext("No member has the number or name “%(text)s”.") % {"text": text},
                    )
                else:
                    names = ", ".join(f"{m.full_name} ({m.membership_number})" for m in matches[:5])
                    self.add_error(
                        "brought_by_number",
                        gettext(
                            "Several members match “%(text)s”: %(names)s. Type the membership "
                            "number."
                        )
                        % {"text": text, "names": names},
                    )
        elif member is None and not self.has_error("brought_by"):
            self.add_error("brought_by", gettext("Choose the member who brought the guest."))
        data["member"] = member
        return data


class DrawForm(forms.Form):
    remainder = forms.ChoiceField(
        choices=[
            (THREES, _("Three-player tables (nobody sits out)")),
            (SIT_OUT, _("Tables of four only (the extra people sit out)")),
        ],
        widget=forms.RadioSelect,
        initial=THREES,
        label=_("When the count is not a multiple of four"),
    )
    spread_guests = forms.BooleanField(
        required=False,
        initial=True,
        label=_("Spread the guests over the tables"),
        help_text=_("No table gets two guests while another has none."),
    )


class _PeopleOfRoundForm(forms.Form):
    def __init__(self, *args, people=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.people = {str(p.pk): p for p in people}
        choices = [("", gettext("— choose —"))] + [(str(p.pk), p.full_name) for p in people]
        for name in self.person_fields:
            self.fields[name].choices = choices

    def _person(self, name):
        value = self.cleaned_data.get(name)
        return self.people.get(value)


class MoveForm(_PeopleOfRoundForm):
    person_fields = ("person",)
    person = forms.ChoiceField(label=_("Who"))
    table = forms.ChoiceField(label=_("To table"))
    position = forms.ChoiceField(label=_("Seat"), required=False)

    def __init__(self, *args, table_numbers=(), seats=4, **kwargs):
        super().__init__(*args, **kwargs)
        new = max(table_numbers, default=0) + 1
        self.fields["table"].choices = (
            [("", gettext("— choose —"))]
            + [(str(n), gettext("Table %(number)s") % {"number": n}) for n in table_numbers]
            + [
                (str(new), gettext("Table %(number)s (a new table)") % {"number": new}),
                ("out", gettext("Sit out this round")),
            ]
        )
        self.fields["position"].choices = [("", gettext("First free seat"))] + [
            (str(n), gettext("Seat %(number)s") % {"number": n}) for n in range(1, seats + 1)
        ]

    def clean(self):
        data = super().clean()
        data["person_obj"] = self._person("person")
        table = data.get("table")
        data["table_number"] = None if table in (None, "", "out") else int(table)
        data["position_number"] = int(data["position"]) if data.get("position") else None
        return data


class SwapForm(_PeopleOfRoundForm):
    person_fields = ("first", "second")
    first = forms.ChoiceField(label=_("Swap"))
    second = forms.ChoiceField(label=_("With"))

    def clean(self):
        data = super().clean()
        data["first_obj"] = self._person("first")
        data["second_obj"] = self._person("second")
        if data["first_obj"] and data["first_obj"] == data["second_obj"]:
            self.add_error("second", gettext("Choose two different people."))
        return data


class MergeForm(forms.Form):
    """Two records of the same person: which one to keep."""

    a = ClubChoiceField(
        lambda: Person.objects.current(),
        widget=forms.HiddenInput,
        error_messages={"invalid_choice": _("One of the records is gone or was already merged.")},
    )
    b = ClubChoiceField(
        lambda: Person.objects.current(),
        widget=forms.HiddenInput,
        error_messages={"invalid_choice": _("One of the records is gone or was already merged.")},
    )
    keep = forms.ChoiceField(
        choices=[("a", _("the first")), ("b", _("the second"))],
        widget=forms.RadioSelect,
        label=_("Keep which record?"),
    )

    def clean(self):
        data = super().clean()
        a, b = data.get("a"), data.get("b")
        if a and b and a == b:
            raise forms.ValidationError(gettext("Choose two different records."))
        if a and b and data.get("keep"):
            data["kept"], data["removed"] = (a, b) if data["keep"] == "a" else (b, a)
        return data


class RosterUploadForm(forms.Form):
    file = forms.FileField(
        label=_("Roster file (.xlsx or .csv)"),
        help_text=_("The membership list saved from your spreadsheet, at most 5 MB."),
        widget=forms.ClearableFileInput(attrs={"accept": ".xlsx,.csv,.txt"}),
    )
    date_order = forms.ChoiceField(
        label=_("Dates like 03/04/2021 are"),
        choices=[
            (AUTO, _("Work it out from the file (month first if unclear)")),
            (MONTH_FIRST, _("Month first (MM/DD/YYYY)")),
            (DAY_FIRST, _("Day first (DD/MM/YYYY)")),
        ],
        initial=AUTO,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if usual_order(roster_read.club_language_code()) == DAY_FIRST:
            self.fields["date_order"].choices = [
                (AUTO, _("Work it out from the file (day first if unclear)")),
                *self.fields["date_order"].choices[1:],
            ]

    def clean_file(self):
        # Refused by its byte size before anything reads it (the same words as the reader).
        upload = self.cleaned_data["file"]
        try:
            roster_read.check_upload_size(upload.size, roster_read.MAX_UPLOAD_BYTES)
        except roster_read.RosterError as error:
            raise forms.ValidationError(str(error)) from None
        return upload


class DateOrderForm(forms.Form):
    """The preview's choice: how the file's dates like 03/04/2021 are written."""

    date_order = forms.ChoiceField(
        label=_("Dates like 03/04/2021 in this file are"),
        choices=[
            (DAY_FIRST, _("Day first: 03/04/2021 is 3 April 2021")),
            (MONTH_FIRST, _("Month first: 03/04/2021 is March 4, 2021")),
        ],
        widget=forms.RadioSelect,
    )

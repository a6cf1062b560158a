"""The money forms. Amounts are read exactly (:mod:`members.money.amounts`); every
choice of a person is the active club's (querysets made when the form is, inside the
request's club)."""

from __future__ import annotations

import secrets

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django_scopes.forms import SafeModelChoiceField

from members.clubs.scope import ClubChoiceField
from members.models import Person
from members.money.amounts import AmountError, amount_message, parse_amount
from members.money.models import Entry, MembershipType, MoneyProfile, MoneySettings


def new_key() -> str:
    return secrets.token_urlsafe(24)


class AmountField(forms.CharField):
    def __init__(self, *, allow_zero: bool = False, **kwargs):
        self.allow_zero = allow_zero
        kwargs.setdefault("max_length", 20)
        super().__init__(**kwargs)

    def widget_attrs(self, widget):
        return {**super().widget_attrs(widget), "inputmode": "decimal", "autocomplete": "off"}

    def clean(self, value):
        value = super().clean(value)
        if value in self.empty_values:
            return None  # not required, left empty
        try:
            return parse_amount(value, allow_zero=self.allow_zero)
        except AmountError as error:
            raise forms.ValidationError(amount_message(error, value)) from None


class KeyForm(forms.Form):
    """A form whose press counts once: the key made when it was drawn."""

    key = forms.CharField(widget=forms.HiddenInput, max_length=64)

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("initial", {}).setdefault("key", new_key())
        super().__init__(*args, **kwargs)


class PaymentForm(KeyForm):
    amount = AmountField(label=_("Amount received"))
    source = forms.ChoiceField(
        label=_("How it came"),
        choices=[
            ("cash", _("Cash")),
            ("cheque", _("Cheque")),
            ("transfer", _("Transfer")),
        ],
    )
    date = forms.DateField(label=_("Date received"), widget=forms.DateInput(attrs={"type": "date"}))
    note = forms.CharField(label=_("Note (optional)"), required=False, max_length=200)

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("initial", {}).setdefault("date", timezone.localdate())
        super().__init__(*args, **kwargs)


def members(exclude=None):
    people = Person.objects.current().members()
    if exclude is not None:
        people = people.exclude(pk=exclude.pk)
    return people.order_by("last_name", "first_name", "pk")


def member_choices(field: forms.ModelChoiceField, exclude=None) -> None:
    field.queryset = members(exclude)


class ChangeChargeForm(forms.Form):
    amount = AmountField(label=_("New amount (0 for nothing)"), allow_zero=True)
    account = ClubChoiceField(members, label=_("On the account of"), required=False)
    reason = forms.CharField(label=_("Why"), max_length=300)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["account"].empty_label = _("The same account")


class ReverseForm(forms.Form):
    reason = forms.CharField(label=_("Why is this line taken back?"), max_length=300)


class ProfileForm(forms.ModelForm):
    class Meta:
        model = MoneyProfile
        fields = ["rate", "payer", "reference", "membership_type", "paid_until"]
        labels = {
            "rate": _("Table-money rate"),
            "payer": _("Table money paid by"),
            "reference": _("Bank reference"),
            "membership_type": _("Membership type"),
            "paid_until": _("Dues paid until"),
        }
        help_texts = {
            "rate": _("Empty: the member rate (the visitor rate for guests)."),
            "payer": _("A partner or host whose account takes this person's table money."),
            "reference": _("A word the bank transfers carry, besides the membership number."),
            "paid_until": _("Moved forward when dues are recorded."),
        }
        widgets = {"paid_until": forms.DateInput(attrs={"type": "date"})}
        field_classes = {"payer": SafeModelChoiceField, "membership_type": SafeModelChoiceField}

    def __init__(self, *args, person=None, **kwargs):
        super().__init__(*args, **kwargs)
        member_choices(self.fields["payer"], exclude=person)
        self.fields["payer"].empty_label = _("Themselves")
        self.fields["membership_type"].queryset = MembershipType.objects.all()
        self.fields["membership_type"].empty_label = _("None")
        self.fields["rate"].choices = [("", _("The usual rate")), *self.fields["rate"].choices[1:]]

    def clean_reference(self):
        reference = " ".join(self.cleaned_data["reference"].split())
        if reference and sum(c.isdigit() for c in reference) >= 6:
            raise forms.ValidationError(
                _("A reference may not be a bank or card number; use a word, like ADAMS-ANN.")
            )
        if reference and len(reference) < 4:
            raise forms.ValidationError(
                _(
                    "A reference needs at least 4 characters (a short one is found inside "
                    "other words); use a longer word, like ADAMS-ANN."
                )
            )
        taken = MoneyProfile.objects.filter(reference__iexact=reference)
        if reference and taken.exclude(pk=self.instance.pk).exists():
            raise forms.ValidationError(_("Another person has this reference already."))
        return reference


class SettingsForm(forms.ModelForm):
    member_rate = AmountField(label=_("Member rate"), allow_zero=True)
    visitor_rate = AmountField(label=_("Visitor rate"), allow_zero=True)
    reduced_rate = AmountField(label=_("Reduced rate"), allow_zero=True)

    class Meta:
        model = MoneySettings
        fields = [
            "currency",
            "member_rate",
            "visitor_rate",
            "reduced_rate",
            "lapsed_pay_visitor_rate",
            "grace_days",
            "bank_date_column",
            "bank_amount_column",
            "bank_reference_column",
            "bank_date_format",
        ]
        labels = {
            "currency": _("Currency (ISO code)"),
            "lapsed_pay_visitor_rate": _("Lapsed members pay the visitor rate"),
            "grace_days": _("Days of grace after dues run out"),
            "bank_date_column": _("Bank file: the date column's name"),
            "bank_amount_column": _("Bank file: the amount column's name"),
            "bank_reference_column": _("Bank file: the reference column's name"),
            "bank_date_format": _("Bank file: how dates are written"),
        }
        help_texts = {
            "currency": _("Three letters: USD, EUR, BRL, ARS, GBP ..."),
            "lapsed_pay_visitor_rate": _(
                "A member whose dues ran out more than the days of grace ago pays the "
                "visitor rate at the door."
            ),
            "grace_days": _("The door shows a member as lapsed this many days after paid-until."),
            "bank_reference_column": _(
                "The column with the payer's words (reference, description). Other columns, "
                "such as account numbers, are never read."
            ),
        }

    def clean_currency(self):
        return self.cleaned_data["currency"].strip().upper()


class DayRateForm(forms.Form):
    free = forms.BooleanField(label=_("A free day: nobody pays table money"), required=False)
    member_rate = AmountField(label=_("Member rate this day"), allow_zero=True, required=False)
    visitor_rate = AmountField(label=_("Visitor rate this day"), allow_zero=True, required=False)
    reduced_rate = AmountField(label=_("Reduced rate this day"), allow_zero=True, required=False)

    def clean(self):
        data = super().clean()
        for name in ("member_rate", "visitor_rate", "reduced_rate"):
            if data.get(name) in ("", None):
                data[name] = None
        return data


class UploadForm(forms.Form):
    file = forms.FileField(label=_("The bank statement (CSV)"))


class PeriodForm(KeyForm):
    start = forms.DateField(label=_("From"), widget=forms.DateInput(attrs={"type": "date"}))
    end = forms.DateField(label=_("To"), widget=forms.DateInput(attrs={"type": "date"}))

    def clean(self):
        data = super().clean()
        if data.get("start") and data.get("end") and data["start"] > data["end"]:
            raise forms.ValidationError(_("The period starts after it ends; check the two dates."))
        return data


class MembershipTypeForm(forms.ModelForm):
    rate = AmountField(label=_("Yearly dues"), allow_zero=True)
    early_rate = AmountField(label=_("Early rate (optional)"), allow_zero=True, required=False)

    class Meta:
        model = MembershipType
        fields = ["name", "rate", "early_rate", "early_until"]
        labels = {"name": _("Name"), "early_until": _("Early rate until")}
        widgets = {"early_until": forms.DateInput(attrs={"type": "date"})}

    def clean(self):
        data = super().clean()
        if data.get("early_rate") in ("", None):
            data["early_rate"] = None
        if (data.get("early_rate") is None) != (data.get("early_until") is None):
            raise forms.ValidationError(_("An early rate needs its date, and a date its rate."))
        name = data.get("name")
        if name and MembershipType.objects.filter(name__iexact=name).exists():
            raise forms.ValidationError(_("There is a membership type of this name already."))
        return data


class RenewalForm(KeyForm):
    name = forms.CharField(label=_("Name"), max_length=80)
    paid_until = forms.DateField(
        label=_("Dues paid in it run until"), widget=forms.DateInput(attrs={"type": "date"})
    )
    remind_on = forms.DateField(
        label=_("Remind the unpaid on (optional)"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
    )


class DuesPaymentForm(KeyForm):
    person = ClubChoiceField(members, label=_("Member"))
    amount = AmountField(label=_("Amount received"))
    source = PaymentForm.base_fields["source"]


ENTRY_SOURCES = dict(Entry.Source.choices)

"""Rule sets (officers): the list, copying one, changing its settings, the club default,
and the rule set a club day plays.

Copying and editing go through :mod:`scoring.play.services.rulesets`, like every other
write; games already started keep the rules they started with.
"""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubsite.params import whole_number
from members.models import ClubDay
from members.permissions import officer_required
from scoring.labels import rules_words
from scoring.models import DayRules, Game, RuleSet
from scoring.play.forms.rulesets import DayRulesForm, NewRuleSetForm, RuleSetForm
from scoring.play.services.confirmations import day_confirms_hands
from scoring.play.services.errors import RuleSetRefused
from scoring.play.services.rulesets import (
    copy_rule_set,
    edit_rule_set,
    rule_set_for_day,
    set_club_default,
    set_day_rules,
)


@officer_required
def rulesets(request):
    rule_sets = list(RuleSet.objects.with_default())
    return render(request, "scoring/rulesets.html", {"rule_sets": rule_sets})


@officer_required
def ruleset_new(request):
    initial = {}
    source_pk = whole_number(request.GET.get("from"))
    if source_pk is not None:
        source = RuleSet.objects.filter(pk=source_pk).first()
        if source is not None:
            name = _("%(name)s (copy)") % {"name": rules_words(source)}
            initial = {"source": source.pk, "name": name[:80]}
    else:
        default = RuleSet.objects.club_default()
        if default is not None:
            initial = {"source": default.pk}
    form = NewRuleSetForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        source = form.cleaned_data["source"]
        name = form.cleaned_data["name"]
        try:
            new = copy_rule_set(source, name)
        except RuleSetRefused as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(
                request, _("“%(name)s” created; change any setting below.") % {"name": new.name}
            )
            return redirect("scoring:ruleset_edit", pk=new.pk)
    return render(request, "scoring/ruleset_new.html", {"form": form})


@officer_required
def ruleset_edit(request, pk):
    rule_set = get_object_or_404(RuleSet.objects.with_default(), pk=pk)
    if rule_set.is_preset:
        form = RuleSetForm(instance=rule_set)
        for field in form.fields.values():
            field.disabled = True
        if request.method == "POST":
            messages.error(request, _("Presets cannot be changed; copy this one to change it."))
        return render(
            request,
            "scoring/ruleset_edit.html",
            {"rule_set": rule_set, "form": form, "read_only": True},
        )
    form = RuleSetForm(request.POST or None, instance=rule_set)
    if request.method == "POST" and form.is_valid() and form.engine_rules is not None:
        edit_rule_set(
            rule_set,
            name=form.cleaned_data["name"],
            description=form.cleaned_data.get("description", ""),
            rules=form.engine_rules,
            confirm_hands=form.cleaned_data["confirm_hands"],
        )
        messages.success(
            request,
            _("“%(name)s” saved. Games already started keep the rules they started with.")
            % {"name": rule_set.name},
        )
        return redirect("scoring:ruleset_edit", pk=rule_set.pk)
    return render(
        request,
        "scoring/ruleset_edit.html",
        {"rule_set": rule_set, "form": form, "read_only": False},
    )


@officer_required
@require_POST
def ruleset_default(request, pk):
    rule_set = get_object_or_404(RuleSet, pk=pk)
    set_club_default(rule_set)
    messages.success(
        request, _("“%(name)s” is now the club default.") % {"name": rules_words(rule_set)}
    )
    return redirect("scoring:rulesets")


def _confirm_words(day) -> str:
    if rule_set_for_day(day) is None:
        return ""
    if day_confirms_hands(day):
        return _("The other team confirms every hand saved from now on.")
    return _("The score keeper's word is enough: hands need no confirmation.")


@officer_required
def day_rules(request, day_pk):
    day = get_object_or_404(ClubDay, pk=day_pk)
    current = DayRules.objects.filter(day=day).select_related("rule_set").first()
    default = RuleSet.objects.club_default()
    initial = {
        "rule_set": current.rule_set_id if current else (default.pk if default else None),
        "confirm_hands": DayRulesForm.confirm_initial(current.confirm_hands if current else None),
    }
    form = DayRulesForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        set_day_rules(day, form.cleaned_data["rule_set"], confirm_hands=form.confirm_value())
        messages.success(
            request,
            _("%(day)s plays “%(name)s”. Games already started keep their rules. %(confirm)s")
            % {
                "day": day,
                "name": rules_words(form.cleaned_data["rule_set"]),
                "confirm": _confirm_words(day),
            },
        )
        target = request.POST.get("next", "")
        if target and url_has_allowed_host_and_scheme(
            target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        ):
            return redirect(target)
        return redirect("scoring:day_rules", day_pk=day.pk)
    games = Game.objects.filter(day=day).count()
    context = {"day": day, "form": form, "current": current, "default": default, "games": games}
    return render(request, "scoring/day_rules.html", {**context, "confirm": _confirm_words(day)})

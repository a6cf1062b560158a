"""An officer makes a person's login the club's treasurer, or takes the role away."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from members.money.access import set_treasurer
from members.money.services.errors import MoneyRefused
from members.money.views.common import person_or_404
from members.permissions import officer_required


@officer_required
@require_POST
def treasurer_role(request, pk):
    person = person_or_404(pk)
    on = request.POST.get("action") == "add"
    try:
        set_treasurer(person, on)
    except MoneyRefused as refusal:
        messages.error(request, refusal.message)
    else:
        if on:
            messages.success(
                request,
                _("%(name)s is a treasurer now: the Money menu is theirs.")
                % {"name": person.full_name},
            )
        else:
            messages.success(
                request, _("%(name)s is no longer a treasurer.") % {"name": person.full_name}
            )
    return redirect("members:person", person.pk)

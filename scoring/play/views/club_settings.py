"""A club's settings page: the club's own fields (``members.clubs.forms.ClubForm``) and
its game settings (``scoring.play.forms.club_settings``), saved together. It lives in
scoring because it writes both apps' rows (members never imports scoring)."""

from __future__ import annotations

from django.contrib import messages
from django.db import transaction
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from members.clubs.forms import ClubForm
from members.permissions import officer_required
from scoring.models import ClubSettings
from scoring.play.forms.club_settings import ClubGameSettingsForm
from scoring.results.cache import results_changed


@officer_required
@require_http_methods(["GET", "POST"])
def club_settings(request):
    """The club's own settings, edited by its officers: its name, time zone, language,
    the results e-mail's sender and reply-to, the default rule set, the minimum games
    to be ranked and the other team's OK. Its address and suspension are the platform
    operator's (the admin)."""
    club = request.club
    game = ClubSettings.load()
    if request.method == "POST":
        form = ClubForm(request.POST, instance=club, prefix="club")
        game_form = ClubGameSettingsForm(request.POST, instance=game, prefix="game")
        if form.is_valid() and game_form.is_valid():
            with transaction.atomic():
                form.save()
                game_form.save()
                results_changed(every_person=True)
            messages.success(request, _("The club's settings are saved."))
            return redirect("club_settings")
    else:
        form = ClubForm(instance=club, prefix="club")
        game_form = ClubGameSettingsForm(instance=game, prefix="game")
    return render(request, "clubs/settings.html", {"form": form, "game_form": game_form})

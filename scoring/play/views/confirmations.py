"""The other team's OK of a hand: a player confirms or disputes it at the table (the
same phone, their own through the table link, or logged in), an officer settles it; a
table that named nobody score keeper names one (asked once, when a waiting hand's
entering side is not known).

Every write goes through :mod:`scoring.play.services.confirmations`; the page goes back
to where the tap came from (the table, the game or the day page).
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubsite.params import whole_number
from scoring.models import Hand, HandConfirmation, TeamPlayer
from scoring.play.access import game_for_request, shows_closed_day
from scoring.play.services.confirmations import (
    ConfirmRefused,
    confirm_hand,
    dispute_hand,
    name_score_keeper,
    result_words,
    settle_hand,
    settle_hands,
)


def _back(request, game):
    target = str(request.POST.get("next", ""))
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(target)
    # The top of the table page: the message saying what was done, the panel under it.
    return redirect("scoring:table", table_pk=game.table_id)


def _hand_and_version(request, game, number):
    hand = get_object_or_404(Hand.objects.select_related("game"), game=game, number=number)
    return hand, whole_number(request.POST.get("version"), digits=6, default=-1)


@shows_closed_day
def hand_confirm(request, game_pk, number):
    """A player of the other team confirms (``action=confirm``) or disputes
    (``action=dispute``, with an optional ``reason``) a hand. GET goes to the table."""
    if request.method != "POST":
        game, _access = game_for_request(request, game_pk)
        return redirect("scoring:table", table_pk=game.table_id)
    game, access = game_for_request(request, game_pk, edit=True)
    hand, version = _hand_and_version(request, game, number)
    member = (
        TeamPlayer.objects.filter(game=game, person_id=whole_number(request.POST.get("person")))
        .select_related("person")
        .first()
    )
    person = member.person if member else None
    who = {"user": access.user_for_history, "via": access.via}
    try:
        if request.POST.get("action") == "dispute":
            reason = str(request.POST.get("reason", ""))
            result, changed = dispute_hand(
                hand, person, reason=reason, expected_version=version, **who
            )
        else:
            result, changed = confirm_hand(hand, person, expected_version=version, **who)
    except ConfirmRefused as exc:
        messages.error(request, exc.message)
        return _back(request, game)
    _tell(request, result, changed, person)
    return _back(request, game)


def _tell(request, result: HandConfirmation, changed: bool, person) -> None:
    """The message after a tap; a repeated tap by the same person (a double tap) adds
    none, so both taps show the same page."""
    if not changed and result.person_id == getattr(person, "pk", None):
        return
    if result.status == HandConfirmation.Status.DISPUTED:
        level = messages.WARNING
    else:
        level = messages.SUCCESS if changed else messages.INFO
    messages.add_message(request, level, result_words(result, changed))


@shows_closed_day
def hand_settle(request, game_pk, number):
    """An officer settles a waiting or disputed hand as it stands."""
    game, access = game_for_request(request, game_pk)
    if not access.is_officer:
        raise PermissionDenied(_("Only club officers can settle a hand."))
    if request.method != "POST":
        return redirect("scoring:table", table_pk=game.table_id)
    hand, version = _hand_and_version(request, game, number)
    try:
        result, changed = settle_hand(hand, officer=request.user, expected_version=version)
    except ConfirmRefused as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, result_words(result, changed))
    return _back(request, game)


@shows_closed_day
def game_settle_all(request, game_pk):
    """An officer settles all of a game's waiting and disputed hands as they stand, in one
    tap (``version-<number>`` for each hand the page showed)."""
    game, access = game_for_request(request, game_pk)
    if not access.is_officer:
        raise PermissionDenied(_("Only club officers can settle a hand."))
    if request.method != "POST":
        return redirect("scoring:table", table_pk=game.table_id)
    versions = {}
    for key, value in request.POST.items():
        number = whole_number(key.removeprefix("version-"), digits=4)
        if key.startswith("version-") and number is not None:
            versions[number] = whole_number(value, digits=6, default=-1)
    try:
        settled = settle_hands(game, versions, officer=request.user)
    except ConfirmRefused as exc:
        messages.error(request, exc.message)
    else:
        if settled:
            numbers = ", ".join(str(c.hand.number) for c in settled)
            messages.success(
                request,
                ngettext(
                    "Hand %(numbers)s was settled as it stands; it is final.",
                    "Hands %(numbers)s were settled as they stand; they are final.",
                    len(settled),
                )
                % {"numbers": numbers},
            )
    return _back(request, game)


@shows_closed_day
def game_keeper(request, game_pk):
    """The table names its score keeper (asked once when nobody was named at the start
    and a waiting hand's entering side is not known). GET goes to the table."""
    if request.method != "POST":
        game, _access = game_for_request(request, game_pk)
        return redirect("scoring:table", table_pk=game.table_id)
    game, access = game_for_request(request, game_pk, edit=True)
    member = (
        TeamPlayer.objects.filter(game=game, person_id=whole_number(request.POST.get("person")))
        .select_related("person")
        .first()
    )
    try:
        _game, changed = name_score_keeper(
            game,
            member.person if member else None,
            user=access.user_for_history,
            via=access.via,
        )
    except ConfirmRefused as exc:
        messages.error(request, exc.message)
    else:
        if changed:
            messages.success(
                request,
                _("%(name)s keeps the score: the other team confirms the hands.")
                % {"name": member.person.full_name},
            )
    return _back(request, game)

"""The other team's OK of a hand: a player confirms or disputes it at the table (the
same phone, their own through the table link, or logged in), an officer settles it; a
table that named nobody score keeper names one (asked once, when a waiting hand's
entering side is not known).

Every write goes through :mod:`scoring.play.services.confirmations`; the page goes back
to where the tap came from (the table, the game or the day page).
"""

from __future__ import annotations

from dataclasses import dataclass, field

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
    confirmers,
    dispute_hand,
    name_score_keeper,
    result_words,
    settle_hand,
    settle_hands,
)


@dataclass
class ConfirmPanel:
    """What the table's one-line panel of the other team's OK shows: ``items`` (the open
    hands, see :func:`to_confirm`), ``summary`` (the line that opens them, e.g. "2 hands
    wait for Team 2's OK") and ``keeper_choices`` (the game's players, when a waiting
    hand's entering side is not known and the table must name its score keeper)."""

    items: list[dict] = field(default_factory=list)
    summary: str = ""
    keeper_choices: list = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self):
        return iter(self.items)


def _summary(items: list[dict]) -> str:
    waiting = [i for i in items if i["confirmation"].status == HandConfirmation.Status.WAITING]
    disputed = len(items) - len(waiting)
    parts = []
    if waiting:
        sides = {(i["waited"], i["either"]) for i in waiting}
        side, either = sides.pop() if len(sides) == 1 else ("", False)
        # No side: the table has not said who keeps the score (it is asked above); two
        # sides: a table of three, either of the two who did not enter it.
        if not side:
            whose = _("an OK")
        elif either:
            whose = _("the OK of %(side)s") % {"side": side}
        else:
            whose = _("%(side)s's OK") % {"side": side}
        if len(waiting) == 1:
            parts.append(
                _("Hand %(number)s waits for %(whose)s")
                % {"number": waiting[0]["hand"].number, "whose": whose}
            )
        else:
            parts.append(
                _("%(count)s hands wait for %(whose)s") % {"count": len(waiting), "whose": whose}
            )
    if disputed == 1 and not waiting:
        disputed_hand = next(i for i in items if i not in waiting)
        parts.append(_("Hand %(number)s is disputed") % {"number": disputed_hand["hand"].number})
    elif disputed:
        parts.append(
            ngettext("%(count)s disputed", "%(count)s disputed", disputed) % {"count": disputed}
        )
    return "; ".join(parts)


def to_confirm(hands, teams, *, officer: bool = False) -> ConfirmPanel:
    """The hands of a game still waiting for the other team (and, for an officer, the
    disputed ones too), each with its team rows and the players who may confirm it
    (from what the page loaded already: hands with ``confirmation`` and their rows
    as ``team_rows``, teams with their memberships), as a :class:`ConfirmPanel`."""
    memberships = [m for team in teams for m in team.memberships.all()]
    labels = {team.pk: team.label_text for team in teams}
    items = []
    for hand in hands:
        confirmation = getattr(hand, "confirmation", None)
        if confirmation is None or not confirmation.is_open:
            continue
        if confirmation.status == HandConfirmation.Status.DISPUTED and not officer:
            continue  # nothing to tap at the table: the hands table says "Disputed"
        people = confirmers(confirmation, memberships)
        waited = [
            labels[team.pk]
            for team in teams
            if confirmation.keeper_team_id is not None and team.pk != confirmation.keeper_team_id
        ]
        rows = list(hand.team_rows)
        for row in rows:
            row.label_text = labels.get(row.team_id, "")
        items.append(
            {
                "hand": hand,
                "confirmation": confirmation,
                "rows": rows,
                "people": people,
                "waited": _("%(first)s or %(last)s") % {"first": waited[0], "last": waited[1]}
                if len(waited) == 2
                else ", ".join(waited),
                "either": len(waited) > 1,
            }
        )
    unknown = any(
        i["confirmation"].keeper_team_id is None
        and i["confirmation"].status == HandConfirmation.Status.WAITING
        for i in items
    )
    return ConfirmPanel(
        items=items,
        summary=_summary(items),
        keeper_choices=[m.person for m in memberships] if unknown else [],
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

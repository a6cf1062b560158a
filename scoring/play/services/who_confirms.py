"""Who made a change and who must confirm a saved hand: who made each change, for the
history and in words (``set_history``, ``user_name``), whether hands of a game wait for
the other team's OK (the day's setting, else the club's, else the rule set's), which
side entered a hand or its correction (the keeper rule), and the OK opened when a hand
is saved and put back to waiting when it is corrected, called inside the writer's
transaction by :mod:`scoring.play.services.hands`. Confirming, disputing and settling
are :mod:`scoring.play.services.confirmations`.
"""

from __future__ import annotations

from django.db.models import Subquery
from django.utils import timezone
from django.utils.translation import gettext as _

from members.permissions import is_officer, person_for
from scoring.models import (
    ClubSettings,
    Game,
    Hand,
    HandConfirmation,
    TeamPlayer,
)

# ---------------------------------------------------------------------------------------
# Who made a change, in words and for the history


def user_name(user) -> str:
    """The name of a signed-in person, or "a table link"."""
    if user is None or not getattr(user, "is_authenticated", False):
        return _("a table link")
    return user.get_full_name() or user.get_username()


def set_history(obj, user, reason: str) -> None:
    """Who made this change, for django-simple-history (outside a request too)."""
    if user is not None and getattr(user, "is_authenticated", False):
        obj._history_user = user
    if reason:
        obj._change_reason = reason[:100]


# ---------------------------------------------------------------------------------------
# The other team's OK: opened by a saved hand, reopened by a correction


def club_confirms() -> Subquery:
    """The club's own setting of the other team's OK (None: as the rule set says)."""
    return Subquery(ClubSettings.objects.values("confirm_hands")[:1])


def _pick(day_value, club_value, rule_set_value) -> bool:
    if day_value is not None:
        return day_value
    return club_value if club_value is not None else bool(rule_set_value)


def confirmation_required(game: Game) -> bool:
    """Whether hands of ``game`` saved now need the other team's OK: the day's setting
    when it has one, else the club's, else the setting of the rule set the game started
    with (one query, or none when the game was read by ``lock_for_hand``)."""
    known = getattr(game, "confirm_setting", None)
    if known is not None:
        return _pick(*known)
    row = (
        Game.objects.filter(pk=game.pk)
        .annotate(confirm_club=club_confirms())
        .values_list("day__rules__confirm_hands", "confirm_club", "rule_set__confirm_hands")
        .first()
    )
    return _pick(*row) if row else False


def entering_team_id(game: Game, user, players=None) -> int | None:
    """The side that entered a hand or its correction (the keeper rule): the side of
    the logged-in player who saved it, else the side of the game's score keeper; None
    when neither plays in the game (nobody may confirm until the table names its score
    keeper). ``players``: the game's ``TeamPlayer`` rows when the caller has them
    (saving a hand has), else read."""
    person = person_for(user)
    for person_id in (person.pk if person else None, game.score_keeper_id):
        if person_id is None:
            continue
        if players is not None:
            team_id = next((p.team_id for p in players if p.person_id == person_id), None)
            if team_id is not None:
                return team_id
            continue
        team_id = (
            TeamPlayer.objects.filter(game=game, person_id=person_id)
            .values_list("team_id", flat=True)
            .first()
        )
        if team_id is not None:
            return team_id
    return None


def open_confirmation(
    game: Game, hand: Hand, *, user=None, now=None, players=None
) -> HandConfirmation | None:
    """Called inside the transaction that saves ``hand``: when the game's day or rule
    set asks for it, the hand waits for the other team's OK."""
    if not confirmation_required(game):
        return None
    confirmation = HandConfirmation(
        hand=hand,
        game=game,
        status=HandConfirmation.Status.WAITING,
        hand_version=hand.version,
        keeper_team_id=entering_team_id(game, user, players),
        updated_at=now or timezone.now(),
    )
    set_history(confirmation, user, "waiting for the other team")
    confirmation.save()
    return confirmation


def after_correction(hand: Hand, *, game: Game, user=None, via: str = "", now=None) -> None:
    """Called inside the transaction that corrects ``hand`` (``game``: its game, locked):
    an officer's correction settles it; anyone else's puts it back to waiting for the
    other team's OK, as entered by the side that corrected it (the keeper rule of
    :func:`entering_team_id`, as for a new hand: never the side that entered it first,
    which might be the one now asked to confirm its own correction)."""
    confirmation = HandConfirmation.objects.filter(hand=hand).first()
    if confirmation is None:
        return
    confirmation.hand_version = hand.version
    confirmation.updated_at = now or timezone.now()
    confirmation.via = via[:120]
    if is_officer(user):
        confirmation.status = HandConfirmation.Status.SETTLED
        confirmation.officer = user
        reason = "settled by a correction"
    else:
        confirmation.status = HandConfirmation.Status.WAITING
        confirmation.person = None
        confirmation.reason = ""
        confirmation.keeper_team_id = entering_team_id(game, user)
        reason = "corrected: waiting for the other team again"
    set_history(confirmation, user, reason)
    confirmation.save()

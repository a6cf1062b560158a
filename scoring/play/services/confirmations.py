"""The other team's OK of a hand: confirm, dispute, settle, and the open hands officers
see. Saving a hand opens it and correcting one puts it back to waiting
(:func:`scoring.play.services.who_confirms.open_confirmation` and ``after_correction``, in
the transaction that saves the hand).

A day (``DayRules.confirm_hands``), else its rule set (``RuleSet.confirm_hands``), says
whether hands need the other team's OK; it is off in every preset. When it is on, a
saved hand waits until a player of another team than the one that entered it confirms
it (or disputes it); an officer settles what stays open, by a confirmation or a
correction. Every change is kept by django-simple-history (who, when, which status).

The side that entered a hand, or its latest correction, is the logged-in player's who
saved it, else the score keeper's (the keeper rule,
:func:`scoring.play.services.who_confirms.entering_team_id`): a correction is judged as a new
hand, never by the side that entered the hand first. When neither is known (nobody was
named score keeper and the hand came from the table's link), nobody may confirm it
until the table names its score keeper (:func:`name_score_keeper`, which the table page
asks for once): the keeper's side then entered the hands still waiting, and the others
confirm them. When an officer names another keeper, the waiting hands the table's link
saved follow the new keeper.

A confirmation carries the hand's version from when the page was drawn, so nobody OKs
numbers they did not see; tapping twice counts once (the second tap finds the hand in
the state the first one left it and writes nothing).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.db.models import Count, Exists, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _

from members.models import ClubDay, Person
from members.permissions import is_officer
from scoring.models import (
    ClubSettings,
    DayRules,
    Game,
    Hand,
    HandConfirmation,
    KeeperChange,
    TeamPlayer,
)
from scoring.play.services.errors import ScoringError
from scoring.play.services.rulesets import rule_set_for_day
from scoring.play.services.who_confirms import set_history, user_name

Status = HandConfirmation.Status

#: The longest reason a dispute keeps.
REASON_MAX = 300


class ConfirmRefused(ScoringError):
    """A confirmation, dispute or settlement cannot be made as asked."""


def day_confirms_hands(day) -> bool:
    """Whether hands saved on ``day`` need the other team's OK (in games started under
    the day's rule set): the day's own setting, else the club's, else its rule set's."""
    chosen = DayRules.objects.filter(day=day)
    row = (
        ClubSettings.objects.annotate(
            day_says=Subquery(chosen.values("confirm_hands")[:1]),
            day_rules_say=Subquery(chosen.values("rule_set__confirm_hands")[:1]),
            day_chose=Exists(chosen),
        )
        .values("day_says", "confirm_hands", "day_chose", "day_rules_say")
        .first()
    )
    if row is None:  # a club without its settings row yet: it is made, and asked again
        ClubSettings.load()
        return day_confirms_hands(day)
    if row["day_says"] is not None:
        return row["day_says"]
    if row["confirm_hands"] is not None:
        return row["confirm_hands"]
    if row["day_chose"]:
        return bool(row["day_rules_say"])
    rule_set = rule_set_for_day(day)
    return bool(rule_set and rule_set.confirm_hands)


def game_would_confirm(day, rule_set) -> bool:
    """Whether a game started now on ``day`` with ``rule_set`` would need the other
    team's OK (the order of ``hands.confirmation_required``: the day's setting, else the
    club's, else the rule set's): its start form then asks who keeps the score."""
    day_says = DayRules.objects.filter(day=day).values_list("confirm_hands", flat=True).first()
    if day_says is not None:
        return day_says
    club_says = ClubSettings.load().confirm_hands
    if club_says is not None:
        return club_says
    return bool(rule_set and rule_set.confirm_hands)


def confirmers(confirmation: HandConfirmation, memberships: Iterable[TeamPlayer]) -> list:
    """The people who may confirm: every player of another side than the one that
    entered the hand (at a table of three, the two who did not enter it); nobody while
    the side that entered it is not known (the table names its score keeper first)."""
    if confirmation.keeper_team_id is None:
        return []
    return [m.person for m in memberships if m.team_id != confirmation.keeper_team_id]


def _locked(hand: Hand, expected_version) -> HandConfirmation:
    """The hand's confirmation, locked with its game; refused when the hand needs no
    confirmation or changed since the page was drawn."""
    Game.objects.locked(hand.game_id)
    confirmation = (
        HandConfirmation.objects.select_for_update(of=("self",))
        .select_related("hand", "person", "officer")
        .filter(hand_id=hand.pk)
        .first()
    )
    if confirmation is None:
        raise ConfirmRefused(
            _("Hand %(number)s does not need the other team's OK.") % {"number": hand.number}
        )
    if type(expected_version) is not int or confirmation.hand.version != expected_version:
        raise ConfirmRefused(
            _(
                "Hand %(number)s was corrected after this page was drawn. Nothing was "
                "recorded: look at its new numbers, then confirm or dispute it."
            )
            % {"number": hand.number}
        )
    return confirmation


def _check_player(confirmation: HandConfirmation, person) -> None:
    if confirmation.keeper_team_id is None:
        raise ConfirmRefused(
            _(
                "Nobody has said yet who keeps the score, so nobody can tell which team "
                "entered hand %(number)s. Answer “Who keeps the score?” on the table page "
                "first; then the other team confirms it."
            )
            % {"number": confirmation.hand.number}
        )
    memberships = TeamPlayer.objects.filter(game_id=confirmation.game_id).select_related("person")
    allowed = {p.pk for p in confirmers(confirmation, memberships)}
    if person is None or person.pk not in allowed:
        raise ConfirmRefused(
            _(
                "Only a player of the other team can confirm or dispute a hand. Choose your "
                "name from the list."
            )
        )


def _final_words(confirmation: HandConfirmation) -> str:
    number = confirmation.hand.number
    if confirmation.status == Status.SETTLED:
        return _("Hand %(number)s was settled by %(who)s; it is final.") % {
            "number": number,
            "who": confirmation.who,
        }
    return _("Hand %(number)s was confirmed by %(who)s.") % {
        "number": number,
        "who": confirmation.who,
    }


def _save(confirmation, *, status, person=None, officer=None, reason="", user, via, now):
    confirmation.status = status
    confirmation.person = person
    confirmation.officer = officer
    confirmation.reason = reason[:REASON_MAX]
    confirmation.via = via[:120]
    confirmation.updated_at = now or timezone.now()
    who = officer if officer is not None else person
    name = who.full_name if isinstance(who, Person) else user_name(who)
    words = f"{status} by {name}" + (f" ({via})" if via else "")
    set_history(confirmation, user, words)
    confirmation.save()
    return confirmation


def confirm_hand(
    hand: Hand, person: Person, *, expected_version, user=None, via: str = "", now=None
) -> tuple[HandConfirmation, bool]:
    """``person`` (a player of the other team) OKs ``hand`` as it was at
    ``expected_version``. Returns the confirmation and whether this call changed it
    (False for a repeated tap). Raises :class:`ConfirmRefused`."""
    with transaction.atomic():
        confirmation = _locked(hand, expected_version)
        _check_player(confirmation, person)
        if confirmation.status in (Status.CONFIRMED, Status.SETTLED):
            return confirmation, False
        if confirmation.status == Status.DISPUTED:
            raise ConfirmRefused(
                _(
                    "Hand %(number)s was disputed by %(who)s; an officer settles it (or the "
                    "score keeper corrects it, and you confirm the new numbers)."
                )
                % {"number": hand.number, "who": confirmation.who}
            )
        _save(confirmation, status=Status.CONFIRMED, person=person, user=user, via=via, now=now)
    return confirmation, True


def dispute_hand(
    hand: Hand,
    person: Person,
    *,
    reason: str = "",
    expected_version,
    user=None,
    via: str = "",
    now=None,
) -> tuple[HandConfirmation, bool]:
    """``person`` (a player of the other team) says ``hand`` is wrong, with an optional
    reason; an officer then settles it. Returns the confirmation and whether this call
    changed it. Raises :class:`ConfirmRefused` for a hand already confirmed or settled."""
    reason = " ".join(str(reason or "").split())[:REASON_MAX]
    with transaction.atomic():
        confirmation = _locked(hand, expected_version)
        _check_player(confirmation, person)
        if confirmation.status == Status.DISPUTED:
            return confirmation, False
        if confirmation.status != Status.WAITING:
            raise ConfirmRefused(
                _final_words(confirmation) + " " + _("If it is wrong after all, ask an officer.")
            )
        _save(
            confirmation,
            status=Status.DISPUTED,
            person=person,
            reason=reason,
            user=user,
            via=via,
            now=now,
        )
    return confirmation, True


def settle_hand(
    hand: Hand, *, officer, expected_version, now=None
) -> tuple[HandConfirmation, bool]:
    """An officer confirms a waiting or disputed ``hand`` as it stands (to change it,
    they correct it instead). Returns the confirmation and whether this call changed it."""
    if not is_officer(officer):
        raise ConfirmRefused(_("Only an officer can settle a hand."))
    with transaction.atomic():
        confirmation = _locked(hand, expected_version)
        if not confirmation.is_open:
            return confirmation, False
        _save(
            confirmation,
            status=Status.SETTLED,
            person=confirmation.person,
            officer=officer,
            reason=confirmation.reason,
            user=officer,
            via="",
            now=now,
        )
    return confirmation, True


def settle_hands(
    game: Game, versions: dict[int, int], *, officer, now=None
) -> list[HandConfirmation]:
    """An officer settles all of ``game``'s waiting or disputed hands at once, as they
    stand: ``versions`` maps each hand's number to the version the officer's page showed.
    In one transaction: every hand is settled (each recorded with who and when, as one
    by one), or, when one changed since the page was drawn, none. Returns the
    confirmations this call settled (none for a repeated tap)."""
    if not is_officer(officer):
        raise ConfirmRefused(_("Only an officer can settle a hand."))
    settled = []
    with transaction.atomic():
        Game.objects.locked(game.pk)
        hands = Hand.objects.filter(
            game=game, confirmation__status__in=(Status.WAITING, Status.DISPUTED)
        ).order_by("number")
        for hand in hands:
            if hand.number not in versions:
                raise ConfirmRefused(
                    _(
                        "Hand %(number)s was saved after this page was drawn. Nothing was "
                        "settled: look at it, then settle them again."
                    )
                    % {"number": hand.number}
                )
            confirmation, changed = settle_hand(
                hand, officer=officer, expected_version=versions[hand.number], now=now
            )
            if changed:
                settled.append(confirmation)
    return settled


def name_score_keeper(
    game: Game, person: Person, *, user=None, via: str = "", now=None
) -> tuple[Game, bool]:
    """Name ``person`` (a player of ``game``) its score keeper, after the start, and
    record who did it (:class:`KeeperChange`). The hands still waiting that no logged-in
    player of the game saved or last corrected were entered by the keeper's side, this
    keeper's (also when an officer names another): the others confirm them. Once a
    keeper is named, only an officer names another. Returns the game and whether this
    call changed it (False for a repeated tap). Raises :class:`ConfirmRefused`."""
    member = (
        TeamPlayer.objects.filter(game_id=game.pk, person_id=getattr(person, "pk", None))
        .select_related("person")
        .first()
    )
    if member is None:
        raise ConfirmRefused(_("Choose the score keeper from the players of this game."))
    now = now or timezone.now()
    with transaction.atomic():
        locked = Game.objects.locked(game.pk)
        if locked.score_keeper_id == member.person_id:
            return locked, False
        if locked.score_keeper_id is not None and not is_officer(user):
            raise ConfirmRefused(
                _(
                    "%(name)s already keeps the score of this game; only an officer can name "
                    "someone else."
                )
                % {"name": locked.score_keeper.full_name}
            )
        locked.score_keeper = member.person
        locked.version += 1
        locked.save(update_fields=["score_keeper", "version"])
        KeeperChange.objects.create(
            game=locked,
            person=member.person,
            named_by=user if getattr(user, "is_authenticated", False) else None,
            via=via[:120],
            at=now,
        )
        _follow_the_keeper(locked, member, user=user, now=now)
    return locked, True


def _follow_the_keeper(game: Game, keeper: TeamPlayer, *, user, now) -> None:
    """The hands still waiting were entered by the keeper's side unless a logged-in
    player of the game saved (or last corrected) them: the keeper rule, applied again
    now the keeper is known (a first naming) or another (an officer's), so the waiting
    hands never keep a side an earlier naming gave them."""
    waiting = list(
        HandConfirmation.objects.select_for_update(of=("self",))
        .filter(game=game, status=Status.WAITING)
        .select_related("hand")
    )
    if not waiting:
        return
    players = {
        m.person.user_id: m.team_id
        for m in TeamPlayer.objects.filter(game=game).select_related("person")
        if m.person.user_id is not None
    }
    for confirmation in waiting:
        side = players.get(_last_writer(confirmation.hand), keeper.team_id)
        if side == confirmation.keeper_team_id:
            continue
        confirmation.keeper_team_id = side
        confirmation.updated_at = now
        if side == keeper.team_id:
            words = f"entered by {keeper.person.full_name}'s side"
        else:
            words = "entered by the side of the player who saved it"
        set_history(confirmation, user, words)
        confirmation.save()


def _last_writer(hand: Hand) -> int | None:
    """The id of the logged-in user who saved or last corrected ``hand`` (None for a
    table link), from the hand's history."""
    return (
        Hand.history.filter(id=hand.pk, history_type__in=("+", "~"))
        .order_by("-history_date", "-history_id")
        .values_list("history_user_id", flat=True)
        .first()
    )


def result_words(confirmation: HandConfirmation, changed: bool) -> str:
    """What the page says after a confirmation, dispute or settlement."""
    number = confirmation.hand.number
    if confirmation.status == Status.DISPUTED:
        return _(
            "Hand %(number)s is marked as disputed by %(who)s. Call an officer: they "
            "settle it. You can go on with the next hand."
        ) % {"number": number, "who": confirmation.who}
    words = _final_words(confirmation)
    return words if changed else words + " " + _("(It already was; nothing more was recorded.)")


def unconfirmed_hand_counts(day_ids: Iterable[int]) -> dict[int, int]:
    """{club day id: number of its hands still waiting for the other team or disputed},
    for the given days; days with none are left out."""
    rows = (
        HandConfirmation.objects.open()
        .filter(game__day_id__in=list(day_ids))
        .values("game__day_id")
        .annotate(n=Count("pk"))
        .order_by()
    )
    return {row["game__day_id"]: row["n"] for row in rows}


def unconfirmed_days_between(start=None, end=None) -> list[tuple]:
    """[(club day, number of open hands)] for the days from ``start`` to ``end`` (both
    inclusive, either may be None) that have hands waiting or disputed, oldest first."""
    rows = HandConfirmation.objects.open()
    if start:
        rows = rows.filter(game__day_date__gte=start)
    if end:
        rows = rows.filter(game__day_date__lte=end)
    counts = dict(rows.values_list("game__day_id").annotate(n=Count("pk")).order_by())
    days = ClubDay.objects.filter(pk__in=counts).order_by("date", "pk") if counts else []
    return [(day, counts[day.pk]) for day in days]


def open_confirmations(day) -> list[HandConfirmation]:
    """The day's hands still waiting or disputed, table by table, for officers."""
    return list(
        HandConfirmation.objects.open()
        .filter(game__day=day)
        .select_related("hand", "game__table", "person", "keeper_team")
        .order_by("game__table__number", "game__number", "hand__number")
    )

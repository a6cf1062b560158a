"""The change history of a game's hands, in plain words, for officers.

django-simple-history keeps a row for every save and delete of a `Hand` (who, when, the
inputs as they were). This module turns those rows into entries such as
"Hand 3 changed by Olive Officer at 3:41 p.m.: Team 2 red threes 1 → 2".
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring import engine
from scoring.labels import CARD_WORDS, PENALTY_LABELS, RANK_WORDS, WENT_OUT_WORDS
from scoring.models import Hand, HandConfirmation, KeeperChange
from scoring.models.games import replaced_words, via_words

TOTAL_WORDS = {
    "melded_points": gettext_lazy("melded points"),
    "natural_canastas": gettext_lazy("natural canastas"),
    "mixed_canastas": gettext_lazy("mixed canastas"),
    "hand_points": gettext_lazy("points left in hand"),
    "red_threes": gettext_lazy("red threes"),
}


ACTION_WORDS = {
    "entered": gettext_lazy("entered"),
    "changed": gettext_lazy("corrected"),
    "undone": gettext_lazy("undone"),
    "confirmed": gettext_lazy("confirmed"),
    "disputed": gettext_lazy("disputed"),
    "settled": gettext_lazy("settled"),
    "waiting": gettext_lazy("sent back to the other team to confirm"),
    "keeper": gettext_lazy("named score keeper"),
}


#: How a naming of the score keeper records the side it gave a waiting hand
#: (:func:`scoring.play.services.confirmations.name_score_keeper`).
SIDE_REASON = "entered by "


@dataclass
class HistoryEntry:
    when: object
    who: str
    action: str  # "entered", "changed", "undone", a confirmation's status, or "keeper"
    number: int | None  # the hand's; None for a keeper named
    changes: list[str] = field(default_factory=list)
    #: Who was named score keeper (action "keeper").
    keeper: str = ""

    @property
    def action_words(self) -> str:
        return ACTION_WORDS[self.action]

    @property
    def headline(self) -> str:
        """What happened, in words: "Hand 3 corrected", "Ann Able named score keeper"."""
        if self.action == "keeper":
            return _("%(name)s named score keeper") % {"name": self.keeper}
        return _("Hand %(number)s %(action)s") % {
            "number": self.number,
            "action": self.action_words,
        }


def _flatten(team: object) -> dict[str, str]:
    """A team's entry as {"what": "value"} in words, for comparing two versions."""
    if not isinstance(team, dict):
        return {}
    out: dict[str, str] = {}
    for key, words in TOTAL_WORDS.items():
        if key in team:
            out[str(words)] = _num(team.get(key))
    for entry, what in (("canastas", _("canastas")), ("unfinished", _("unfinished melds"))):
        by_kind = team.get(entry)
        if isinstance(by_kind, dict):
            for kind, n in by_kind.items():
                out[f"{_kind_word(kind)} {what}"] = _num(n)
    went_out = team.get("went_out") or "none"
    out[_("went out")] = str(WENT_OUT_WORDS.get(went_out, str(went_out)))
    out[_("perfect cut")] = _("yes") if team.get("perfect_cut") else _("no")
    if team.get("special_hand"):
        out[_("special hand")] = str(team["special_hand"]).replace("_", " ")[:30]
    for meld in team.get("melds") or []:
        if not isinstance(meld, dict):
            continue
        if isinstance(meld.get("sequence"), list):
            run = [str(rank) for rank in meld["sequence"]][:7]
            out[f"sequence from {run[0] if run else '?'}"] = f"{len(run)} cards"
            continue
        rank = meld.get("rank")
        if rank == "wild":
            out["meld of wild cards"] = ", ".join(
                f"{_num(meld.get(key))} {key}" for key in ("jokers", "twos") if meld.get(key)
            )
            continue
        name = RANK_WORDS.get(rank, str(rank)).lower()
        parts = [_("%(n)s natural") % {"n": _num(meld.get("naturals"))}]
        if meld.get("jokers"):
            parts.append(f"{_num(meld.get('jokers'))} {str(CARD_WORDS['joker']).lower()}")
        if meld.get("twos"):
            parts.append(f"{_num(meld.get('twos'))} {str(CARD_WORDS['2']).lower()}")
        out[_("meld of %(cards)s") % {"cards": name}] = ", ".join(parts)
    cards = team.get("hand_cards")
    if isinstance(cards, dict):
        for key in engine.HAND_CARD_KEYS:
            if cards.get(key):
                words = _("%(cards)s left in hand") % {"cards": str(CARD_WORDS[key]).lower()}
                out[words] = _num(cards[key])
    counts: dict[str, int] = {}
    for penalty in team.get("penalties") or []:
        if not isinstance(penalty, dict):
            continue
        kind = penalty.get("kind")
        if kind == "other":
            note = penalty.get("note") or ""
            out[_("other penalty")] = (
                f"{_num(penalty.get('points'))} ({note})" if note else _num(penalty.get("points"))
            )
        elif kind in PENALTY_LABELS:
            counts[kind] = counts.get(kind, 0) + 1
    for kind, count in counts.items():
        out[_("penalty “%(penalty)s”") % {"penalty": str(PENALTY_LABELS[kind]).lower()}] = (
            f"{count}×"
        )
    return out


def _kind_word(kind: object) -> str:
    """ "sevens", "sequence" (a kind of canasta's key, for a change line)."""
    return str(kind).replace("_", " ")[:20]


def _num(value: object) -> str:
    if type(value) is int:
        return number_format(value, force_grouping=True)
    if value is None:
        return "0"
    return str(value)[:30]


def describe_changes(old: object, new: object, labels: list[str]) -> list[str]:
    """["Team 2 red threes 1 → 2", ...] between two versions of a hand's inputs."""
    old = old if isinstance(old, list) else []
    new = new if isinstance(new, list) else []
    lines = []
    for i in range(max(len(old), len(new))):
        label = labels[i] if i < len(labels) else _("Team %(number)s") % {"number": i + 1}
        before = _flatten(old[i] if i < len(old) else {})
        after = _flatten(new[i] if i < len(new) else {})
        for key in list(before) + [k for k in after if k not in before]:
            a, b = before.get(key, "—"), after.get(key, "—")
            if a != b:
                lines.append(f"{label} {key} {a} → {b}")
    return lines


def hand_history(game, labels: list[str]) -> list[HistoryEntry]:
    """Every entry, correction and undo of the game's hands, every confirmation, and
    every score keeper named after the start, newest first."""
    records = list(
        Hand.history.filter(game_id=game.pk)
        .select_related("history_user")
        .order_by("history_date", "history_id")
    )
    last_inputs: dict[int, object] = {}
    entries = []
    for record in records:
        user = record.history_user
        if user is not None:
            who = user.get_full_name() or user.get_username()
        else:
            who = via_words(record.history_change_reason or record.entered_via) or _("a table link")
        action = {"+": "entered", "~": "changed", "-": "undone"}[record.history_type]
        entry = HistoryEntry(record.history_date, who, action, record.number)
        if action == "changed":
            entry.changes = describe_changes(last_inputs.get(record.id), record.inputs, labels)
            if not entry.changes:
                entry.changes = [_("No change in what was entered.")]
            # A second phone's replacing, said whoever did it (a person's name or not).
            replaced = replaced_words(record.history_change_reason)
            if replaced:
                entry.changes.insert(0, replaced)
        last_inputs[record.id] = record.inputs
        entries.append(entry)
    numbers = {record.id: record.number for record in records}
    entries.extend(confirmation_history(game, numbers))
    entries.extend(keeper_history(game))
    entries.sort(key=lambda e: e.when)
    entries.reverse()
    return entries


def confirmation_history(game, numbers: dict[int, int] | None = None) -> list[HistoryEntry]:
    """Each confirmation, dispute and settlement of the game's hands (and each hand sent
    back to the other team by a correction), oldest first.

    A record's hand may be gone (undone, with its confirmation): its number is read from
    the hand's own history, ``numbers`` ({hand id: number}, every hand the game ever
    had), never through the record's link to the hand."""
    if numbers is None:
        numbers = dict(Hand.history.filter(game_id=game.pk).values_list("id", "number"))
    records = (
        HandConfirmation.history.filter(game_id=game.pk, history_type="~")
        .select_related("history_user", "person", "officer")
        .order_by("history_date", "history_id")
    )
    entries = []
    for record in records:
        if (record.history_change_reason or "").startswith(SIDE_REASON):
            continue  # the side a naming gave a waiting hand: said by the naming itself
        if record.status == "settled" and record.officer is not None:
            who = record.officer.get_full_name() or record.officer.get_username()
        elif record.status in ("confirmed", "disputed") and record.person is not None:
            who = record.person.full_name
        elif record.history_user is not None:
            who = record.history_user.get_full_name() or record.history_user.get_username()
        else:
            who = via_words(record.via) or _("a table link")
        if record.status in ("confirmed", "disputed") and record.via:
            who = f"{who} ({via_words(record.via)})"
        entry = HistoryEntry(record.history_date, who, record.status, numbers.get(record.hand_id))
        if record.status == "disputed":
            entry.changes = [
                _("Why: %(reason)s") % {"reason": record.reason}
                if record.reason
                else _("No reason given.")
            ]
        entries.append(entry)
    return entries


def keeper_history(game) -> list[HistoryEntry]:
    """Each score keeper named after the start ("Who keeps the score?" at the table, or
    an officer naming another), by whom: a logged-in person, else the device's table
    link; oldest first. The side that entered the waiting hands follows the keeper, so
    these decide who may confirm them."""
    changes = KeeperChange.objects.filter(game=game).select_related("person", "named_by")
    entries = []
    for change in changes.order_by("at", "pk"):
        if change.named_by is not None:
            who = change.named_by.get_full_name() or change.named_by.get_username()
        else:
            who = via_words(change.via) or _("a table link")
        keeper = change.person.full_name if change.person else _("A former player")
        words = [
            _("Hands still waiting for an OK count as entered by %(name)s's side.")
            % {"name": keeper}
        ]
        entries.append(HistoryEntry(change.at, who, "keeper", None, words, keeper=keeper))
    return entries

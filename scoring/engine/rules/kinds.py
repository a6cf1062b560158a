"""Kinds of canasta: what a game's canastas may be, each with its bonus.

Every game has natural and mixed canastas (their bonuses are the rule set's
``natural_canasta_bonus`` and ``mixed_canasta_bonus``). A rule set may list other kinds
in ``canasta_kinds``, each a key of :data:`CATALOGUE` with its bonus and, where the game
says so, a penalty when one is left unfinished, a penalty for a player holding three or
more of its rank, and whether an unfinished one stops its team going out.

The catalogue says what each kind may hold. A canasta is of the first kind of the
catalogue's order that it fits: seven sevens are a canasta of sevens where the game has
that kind and a natural canasta elsewhere; seven twos are a wild canasta of twos before
they are any wild canasta.
"""

from __future__ import annotations

from typing import NamedTuple

from .._text import _, gettext_noop

#: The shapes of a meld: cards of one rank (with wild cards or not), wild cards only,
#: or natural cards of one suit in sequence (4 low, ace high).
GROUP, WILD, SEQUENCE = "group", "wild", "sequence"

#: The natural ranks in sequence order, low to high: a sequence meld runs along them.
SEQUENCE_ORDER: tuple[str, ...] = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")

#: Cards that make a canasta.
CANASTA_CARDS = 7

#: A player holding this many cards of a kind's rank at the end pays its "held" penalty.
HELD_AT_LEAST = 3


class KindSpec(NamedTuple):
    """What a kind of canasta may hold (an entry of :data:`CATALOGUE`)."""

    key: str
    label: str
    shape: str
    #: Group kinds of one rank only ("7", "A"); None: any natural rank.
    rank: str | None = None
    #: Group kinds: True without wild cards, False with at least one, None either way.
    natural: bool | None = None
    #: Wild kinds: the jokers it must hold at least, and may hold at most (None: any).
    min_jokers: int = 0
    max_jokers: int | None = None
    #: Melds of this kind's rank never take a wild card (Modern American sevens).
    rank_takes_no_wild: bool = False
    #: What one holds, for messages and the rules page.
    holds: str = ""


#: Every kind a rule set can have, in the order a canasta is matched against them.
CATALOGUE: tuple[KindSpec, ...] = (
    KindSpec(
        "sevens",
        gettext_noop("Canasta of sevens"),
        GROUP,
        "7",
        True,
        rank_takes_no_wild=True,
        holds=gettext_noop("seven sevens; a meld of sevens takes no wild card"),
    ),
    KindSpec(
        "aces",
        gettext_noop("Canasta of aces"),
        GROUP,
        "A",
        True,
        holds=gettext_noop("seven aces, no wild card"),
    ),
    KindSpec(
        "natural",
        gettext_noop("Natural canasta"),
        GROUP,
        None,
        True,
        holds=gettext_noop("seven of a rank, no wild"),
    ),
    KindSpec(
        "mixed",
        gettext_noop("Mixed canasta"),
        GROUP,
        None,
        False,
        holds=gettext_noop("seven of a rank with wilds"),
    ),
    KindSpec(
        "wild_twos",
        gettext_noop("Wild canasta of twos"),
        WILD,
        max_jokers=0,
        holds=gettext_noop("seven twos"),
    ),
    KindSpec(
        "wild_jokers",
        gettext_noop("Wild canasta with four jokers"),
        WILD,
        min_jokers=4,
        holds=gettext_noop("seven wild cards, four of them jokers"),
    ),
    KindSpec("wild", gettext_noop("Wild canasta"), WILD, holds=gettext_noop("seven wild cards")),
    KindSpec("bolivia", gettext_noop("Bolivia"), WILD, holds=gettext_noop("seven wild cards")),
    KindSpec(
        "sequence",
        gettext_noop("Sequence canasta"),
        SEQUENCE,
        holds=gettext_noop("seven cards of one suit in sequence, no wild card"),
    ),
)
CATALOGUE_BY_KEY: dict[str, KindSpec] = {spec.key: spec for spec in CATALOGUE}

#: How messages name one canasta of each kind, and several, by the kind's label (the
#: catalogue's, or a preset's own name for it); marked for translation and said in the
#: reader's language by :func:`kind_words`. Every kind is feminine in Spanish and
#: Portuguese (canasta, canastra, escalera), so messages agree with any of them.
_KIND_WORDS: dict[str, tuple[str, str]] = {
    "Canasta of sevens": (gettext_noop("canasta of sevens"), gettext_noop("canastas of sevens")),
    "Canasta of aces": (gettext_noop("canasta of aces"), gettext_noop("canastas of aces")),
    "Natural canasta": (gettext_noop("natural canasta"), gettext_noop("natural canastas")),
    "Mixed canasta": (gettext_noop("mixed canasta"), gettext_noop("mixed canastas")),
    "Wild canasta of twos": (
        gettext_noop("wild canasta of twos"),
        gettext_noop("wild canastas of twos"),
    ),
    "Wild canasta with four jokers": (
        gettext_noop("wild canasta with four jokers"),
        gettext_noop("wild canastas with four jokers"),
    ),
    "Wild canasta": (gettext_noop("wild canasta"), gettext_noop("wild canastas")),
    "Bolivia": (gettext_noop("bolivia"), gettext_noop("bolivias")),
    "Sequence canasta": (gettext_noop("sequence canasta"), gettext_noop("sequence canastas")),
    # The presets' own names for a kind (presets.py).
    "Samba": (gettext_noop("samba"), gettext_noop("sambas")),
    "Escalera": (gettext_noop("escalera"), gettext_noop("escaleras")),
    "Wild canasta of seven twos": (
        gettext_noop("wild canasta of seven twos"),
        gettext_noop("wild canastas of seven twos"),
    ),
    "Wild canasta of four jokers and three twos": (
        gettext_noop("wild canasta of four jokers and three twos"),
        gettext_noop("wild canastas of four jokers and three twos"),
    ),
}


def kind_words(label: str) -> tuple[str, str]:
    """One canasta of the kind called ``label`` and several, in the reader's language:
    ``("canasta of sevens", "canastas of sevens")``, ``("samba", "sambas")``. A name a
    club gave a kind itself is kept as typed (its plural made the English way)."""
    known = _KIND_WORDS.get(label)
    if known:
        return _(known[0]), _(known[1])
    word = label[0].lower() + label[1:] if label else label
    if "canasta" in word:
        return word, word.replace("canasta", "canastas", 1)
    return word, word + "s"


def kind_label(label: str) -> str:
    """A kind's name as a heading, in the reader's language ("Canasta of sevens")."""
    return _(label) if label in _KIND_WORDS else label


_ORDER = {spec.key: n for n, spec in enumerate(CATALOGUE)}

#: The two kinds every game has; their bonuses are settings of their own.
DEFAULT_KEYS = ("natural", "mixed")
#: Kinds ``canasta_kinds`` may list.
EXTRA_KEYS: tuple[str, ...] = tuple(s.key for s in CATALOGUE if s.key not in DEFAULT_KEYS)
#: Kinds that are the same canastas: a rule set has at most one of them.
SAME_CANASTAS = ("wild", "bolivia")


class KindEntry(NamedTuple):
    """One entry of a rule set's ``canasta_kinds``: a catalogue key and its numbers."""

    kind: str
    bonus: int
    #: Taken off a team for each meld of this kind left unfinished (0: none).
    unfinished: int = 0
    #: Taken off for each player holding three or more of its rank at the end (0: none).
    held: int = 0
    #: An unfinished one stops its team going out.
    blocks_going_out: bool = False
    #: The game's own name for it ("Samba", "Escalera"); "" for the catalogue's.
    label: str = ""

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = {"kind": self.kind, "bonus": self.bonus}
        if self.unfinished:
            data["unfinished"] = self.unfinished
        if self.held:
            data["held"] = self.held
        if self.blocks_going_out:
            data["blocks_going_out"] = True
        if self.label:
            data["label"] = self.label
        return data


class Kind(NamedTuple):
    """A kind of canasta of one rule set: what it holds (its catalogue entry) and its
    numbers. ``rules.kinds`` lists them in catalogue order."""

    key: str
    label: str
    shape: str
    rank: str | None
    natural: bool | None
    min_jokers: int
    max_jokers: int | None
    rank_takes_no_wild: bool
    bonus: int
    unfinished: int
    held: int
    blocks_going_out: bool

    @property
    def word(self) -> str:
        """How messages name one: "canasta of sevens", "samba" (in the reader's
        language)."""
        return kind_words(self.label)[0]

    @property
    def has_wild_cards(self) -> bool:
        """Whether a canasta of this kind holds wild cards (mixed and wild canastas);
        stored totals count the others as natural canastas, these as mixed ones."""
        if self.shape == GROUP:
            return self.natural is not True
        return self.shape == WILD

    @property
    def plural(self) -> str:
        """ "natural canastas", "canastas of sevens", "sambas" (in the reader's
        language)."""
        return kind_words(self.label)[1]

    def fits(self, shape: str, rank: str | None, wild: int, jokers: int, complete: bool) -> bool:
        """Whether a meld of ``shape`` and ``rank`` with ``wild`` wild cards (``jokers``
        of them jokers) is, or (``complete`` False) may still become, one of these."""
        if shape != self.shape:
            return False
        if shape == GROUP:
            if self.rank is not None and rank != self.rank:
                return False
            if self.natural is True and wild:
                return False
            return not (self.natural is False and not wild)
        if shape == WILD:
            if self.max_jokers is not None and jokers > self.max_jokers:
                return False
            return not (complete and jokers < self.min_jokers)
        return True


def sort_entries(entries) -> tuple[KindEntry, ...]:
    """Entries in catalogue order (the order canastas are matched in)."""
    return tuple(sorted(entries, key=lambda entry: _ORDER[entry.kind]))


def build_kinds(natural_bonus: int, mixed_bonus: int, entries) -> tuple[Kind, ...]:
    """A rule set's kinds, natural and mixed included, in catalogue order."""
    numbers = {
        "natural": KindEntry("natural", natural_bonus),
        "mixed": KindEntry("mixed", mixed_bonus),
    }
    numbers.update((entry.kind, entry) for entry in entries)
    kinds = []
    for spec in CATALOGUE:
        entry = numbers.get(spec.key)
        if entry is None:
            continue
        kinds.append(
            Kind(
                key=spec.key,
                label=entry.label or spec.label,
                shape=spec.shape,
                rank=spec.rank,
                natural=spec.natural,
                min_jokers=spec.min_jokers,
                max_jokers=spec.max_jokers,
                rank_takes_no_wild=spec.rank_takes_no_wild,
                bonus=entry.bonus,
                unfinished=entry.unfinished,
                held=entry.held,
                blocks_going_out=entry.blocks_going_out,
            )
        )
    return tuple(kinds)


def kind_index(kinds, shape: str, rank: str | None, wild: int, jokers: int) -> int | None:
    """The index in ``kinds`` of a complete canasta's kind, or None if the game has
    none it fits (such as wild cards alone in classic canasta)."""
    for index, kind in enumerate(kinds):
        if kind.fits(shape, rank, wild, jokers, True):
            return index
    return None


def unfinished_index(kinds, shape: str, rank: str | None, wild: int, jokers: int) -> int | None:
    """The index of the kind an unfinished meld counts as, or None: the kind it would
    be if completed as it is; a meld of wild cards, whose kind is not known until it is
    complete, counts as the game's most general wild kind (Modern American "wild")."""
    order = range(len(kinds) - 1, -1, -1) if shape == WILD else range(len(kinds))
    for index in order:
        if kinds[index].fits(shape, rank, wild, jokers, False):
            return index
    return None

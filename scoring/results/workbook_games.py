"""The Games and Hands sheets of the league workbook: the rows of every finished game
of a period and of every team's hand in them, streamed from the database.

The Games sheet names each team once (:func:`team_names`, one streamed query) and
remembers where each game was played, so the Hands sheet (80,000 rows a season) needs
no join for it. Both name the club day of each row (the Day column, from
:func:`scoring.results.workbook_summary.day_labels`: two days on one date are told
apart). The Hands sheet also says each team's failed initial melds and its penalties
in words (read only for the few hands that have a penalty).
"""

from __future__ import annotations

from collections.abc import Iterator

from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from members.models import Person
from scoring.labels import WENT_OUT_SHEET, kinds_words, penalty_words, rules_words
from scoring.models import GameTeam, Hand, TeamHand
from scoring.play.services.hands import saved_failed_melds
from scoring.results.sheets import THOUSANDS, Column, day, integer, moment, text
from scoring.results.standings.periods import Period, finished_games, finished_players

CHUNK = 2000


def full_name(first, last) -> str:
    return f"{first} {last}".strip()


def local_time(moment_value):
    """A stored moment as the club's wall-clock time, to the second, without a zone
    (spreadsheet cells have none)."""
    if moment_value is None:
        return None
    if timezone.is_aware(moment_value):
        moment_value = timezone.localtime(moment_value)
    return moment_value.replace(tzinfo=None, microsecond=0)


def team_names(period: Period) -> dict[int, str]:
    """Team id → "Ann Able & Cat Cole" for every team of a finished game in the period:
    one streamed query."""
    rows = (
        finished_players(period.start, period.end)
        .order_by("team_id", "seat", "pk")
        .values_list("team_id", "person__first_name", "person__last_name", "person__kind")
        .iterator(chunk_size=CHUNK)
    )
    names: dict[int, list[str]] = {}
    for team_id, first, last, kind in rows:
        label = full_name(first, last)
        if kind == Person.Kind.GUEST:
            label = gettext("%(name)s (guest)") % {"name": label}
        names.setdefault(team_id, []).append(label)
    return {team_id: " & ".join(people) for team_id, people in names.items()}


def max_teams(period) -> int:
    found = (
        GameTeam.objects.filter(game__in=finished_games(period.start, period.end))
        .order_by("-index")
        .values_list("index", flat=True)
        .first()
    )
    return max(2, (found or 0) + 1)


def games_columns(n_teams: int) -> list[Column]:
    columns = [
        day(_("Date")),
        text(_("Day")),
        integer(_("Round")),
        integer(_("Table")),
        integer(_("Game")),
    ]
    for i in range(1, n_teams + 1):
        columns += [
            text(gettext("Team %(number)s") % {"number": i}),
            integer(gettext("Team %(number)s score") % {"number": i}, number_format=THOUSANDS),
        ]
    columns += [
        text(_("Winners")),
        integer(_("Winning score"), number_format=THOUSANDS),
        integer(_("Hands")),
        text(_("Rules")),
        moment(_("Finished at")),
    ]
    return columns


def games_rows(
    period,
    names: dict[int, str],
    n_teams: int,
    seen: dict[int, tuple] | None = None,
    labels: dict[int, str] | None = None,
) -> Iterator[list]:
    """One row per finished game; ``seen`` (if given) collects game id → (date, day
    label, round, table, game number, failed melds by hand, the game's names of its
    kinds of canasta) for the Hands sheet;
    ``labels`` maps a club day id to its Day label."""
    labels = labels or {}
    teams = (
        GameTeam.objects.filter(game__in=finished_games(period.start, period.end))
        .order_by(
            "game__day_date",
            "game__day_id",
            "game__table__round__number",
            "game__table__number",
            "game__number",
            "game_id",
            "index",
        )
        .values_list(
            "game_id",
            "game__day_date",
            "game__day_id",
            "game__table__round__number",
            "game__table__number",
            "game__number",
            "game__hand_count",
            "game__rules_name",
            "game__finished_at",
            "game__failed_melds",
            "game__rules__canasta_kinds",
            "id",
            "total",
            "won",
        )
        .iterator(chunk_size=CHUNK)
    )
    current = None
    game_info = None
    sides: list[tuple[int, int, bool]] = []
    for game_id, *info, failed, kinds, team_id, total, won in teams:
        if game_id != current:
            if current is not None:
                yield _game_row(game_info, sides, names, n_teams)
            info[1] = labels.get(info[1], "")
            current, game_info, sides = game_id, info, []
            if seen is not None:
                seen[game_id] = (*info[:5], saved_failed_melds(failed), _kind_names(kinds))
        sides.append((team_id, total, won))
    if current is not None:
        yield _game_row(game_info, sides, names, n_teams)


def _kind_names(kinds) -> dict[str, str]:
    """The game's own names of its kinds of canasta (Samba's "Samba" for a sequence),
    from its rules' ``canasta_kinds``."""
    if not isinstance(kinds, list):
        return {}
    return {k["kind"]: k["label"] for k in kinds if isinstance(k, dict) and k.get("label")}


def _game_row(info, sides: list[tuple[int, int, bool]], names, n_teams: int) -> list:
    """The Games sheet's row of one game: its (date, day label, round, table, number,
    hands, rules, finished) and its sides (team id, total, won), in team order."""
    date, title, round_no, table, number, hands, rules, finished = info
    row = [date, title, round_no, table, number]
    for i in range(n_teams):
        if i < len(sides):
            team_id, total, _won = sides[i]
            row += [names.get(team_id, ""), total]
        else:
            row += [None, None]
    winner = next((s for s in sides if s[2]), None)
    row += [
        names.get(winner[0], "") if winner else "",
        winner[1] if winner else None,
        hands,
        rules_words(rules),
        local_time(finished),
    ]
    return row


HANDS_COLUMNS = [
    day(_("Date")),
    text(_("Day")),
    integer(_("Round")),
    integer(_("Table")),
    integer(_("Game")),
    integer(_("Hand")),
    integer(_("Team")),
    text(_("Players")),
    integer(_("Melded points")),
    integer(_("Natural canastas")),
    integer(_("Mixed canastas")),
    text(_("Other canastas")),
    integer(_("Red threes")),
    text(_("Went out")),
    integer(_("Points left in hand")),
    text(_("Perfect cut")),
    integer(_("Failed melds")),
    integer(_("Penalty points")),
    text(_("Penalties")),
    integer(_("Hand score"), number_format=THOUSANDS),
    integer(_("Running total"), number_format=THOUSANDS),
]


# What the Hands sheet reads of each team's hand, in the order hands_rows unpacks it.
_HAND_FIELDS = (
    "game_id",
    "hand__number",
    "team__index",
    "team_id",
    "melded_points",
    "natural_canastas",
    "mixed_canastas",
    "canastas_by_kind",
    "red_threes",
    "went_out",
    "hand_points",
    "perfect_cut",
    "penalty_points",
    "hand_score",
    "score_after",
)


def _penalised_inputs(period) -> dict[tuple[int, int], list]:
    """(game id, hand number) → the hand's inputs, for the hands of the period where
    some team had a penalty (a few in a season)."""
    # The ids first, then the hands: one query with the team hands as a subquery took
    # 4.6 s on SQLite for a 32,000-hand season (0.1 s this way).
    penalised = (
        TeamHand.objects.filter(game__in=finished_games(period.start, period.end))
        .exclude(penalty_points=0)
        .values_list("hand_id", flat=True)
    )
    hands = Hand.objects.filter(pk__in=list(penalised)).values_list("game_id", "number", "inputs")
    return {(game_id, number): inputs for game_id, number, inputs in hands}


def _failed(failed: dict[int, list[int]], hand: int, index: int) -> int | None:
    counts = failed.get(hand) or []
    return counts[index] if index < len(counts) and counts[index] else None


def hands_rows(period, names: dict[int, str], games: dict[int, tuple]) -> Iterator[list]:
    """``games`` maps a game id to its (date, day label, round, table, game number,
    failed melds by hand), as the Games sheet found them, so the 80,000 rows of a season
    need not carry them."""
    penalised = _penalised_inputs(period)
    yes = gettext("Yes")
    rows = (
        TeamHand.objects.filter(game__in=finished_games(period.start, period.end))
        .order_by(
            "game__day_date",
            "game__day_id",
            "game__table__round__number",
            "game__table__number",
            "game__number",
            "game_id",
            "hand__number",
            "team__index",
        )
        .values_list(*_HAND_FIELDS)
        .iterator(chunk_size=CHUNK)
    )
    for (
        game_id,
        hand,
        index,
        team_id,
        melded,
        natural,
        mixed,
        by_kind,
        red_threes,
        went_out,
        left,
        cut,
        penalty,
        score,
        total,
    ) in rows:
        info = games.get(game_id)
        if info is None:  # finished while the workbook was being written: next time
            continue
        # date, day, round, table, game; failed melds by hand; the game's names of kinds
        *where, failed, kind_names = info
        inputs = penalised.get((game_id, hand)) if penalty else None
        yield [
            *where,
            hand,
            index + 1,
            names.get(team_id, ""),
            melded,
            natural,
            mixed,
            kinds_words(by_kind, names=kind_names),
            red_threes,
            str(WENT_OUT_SHEET.get(went_out, went_out)),
            left,
            yes if cut else "",
            _failed(failed, hand, index),
            penalty,
            penalty_words(inputs[index]) if inputs and index < len(inputs) else "",
            score,
            total,
        ]

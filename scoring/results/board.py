"""The room board: a club day's tables, games in play and results, for a screen on the
club room's wall.

A screen gets in the way a score keeper's phone does (:mod:`scoring.play.rooms`): the
day's board code typed on the board's front page, or the board link on the day's page,
gives *this browser* a grant, kept in its session, for that day's board only; it stops
working when the day's table links end (the end of its date, unless an officer kept them
working longer) or the day is closed. Wrong codes are counted exactly like wrong room codes.
Logged-in officers may see any day's board.
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from members.clubs.addresses import club_url
from members.clubs.scope import current_club_id
from members.models import ClubDay, Table
from members.permissions import is_officer
from members.services.days import links_open
from scoring.play.rooms import check_typed_code
from scoring.play.services.confirmations import unconfirmed_hand_counts
from scoring.results.standings.days import day_games, team_people, top_scores
from scoring.tourney.beside import day_event_ranking
from scoring.tourney.display import board_event

BOARD_KEY = "scoring_board_grant"
BOARD_WORDS = (
    gettext_noop("board code"),
    gettext_noop("club day"),
    gettext_noop("the club day's page (officers have it)"),
)
ENDED_MESSAGE = gettext_noop(
    "This club day's room board has ended: the day is closed or its table links have "
    "stopped working. An officer can open today's board from today's club day page."
)


class BoardEnded(Exception):
    """The board's day is over (closed, or its links have ended)."""

    def __init__(self, day: ClubDay):
        super().__init__(_(ENDED_MESSAGE))
        self.day = day


def _day_with_code(code: str) -> ClubDay | None:
    """The day with board code ``code``: the club's own, else another club's (codes are
    unique across the site and always lead to their own club's board)."""
    found = ClubDay.objects.filter(board_code=code).first()
    if found is None:
        found = ClubDay.objects.with_scopes_disabled().select_related("club")
        found = found.filter(board_code=code).first()
    return found


def board_link_elsewhere(request, day: ClubDay) -> str:
    """Another club's board code leads to its board link at that club's address."""
    return club_url(request, day.club, "scoring:board_link", code=day.board_code)


def check_board_code(request, text: object) -> tuple[ClubDay | None, str]:
    """A typed (or linked) board code: (day, "") or (None, a message for the box)."""
    day, problem = check_typed_code(request, text, _day_with_code, BOARD_WORDS)
    if day is None:
        return None, problem
    if day.club_id != current_club_id():  # its own club's board link checks it
        return day, ""
    if not links_open(day):
        return None, _(ENDED_MESSAGE)
    return day, ""


def grant_board(request, day: ClubDay) -> None:
    """Let this browser show ``day``'s board (and no other day's)."""
    request.session[BOARD_KEY] = day.pk


def board_day(request, pk) -> ClubDay:
    """The day whose board this browser may show; 404 for anyone without a way in,
    :class:`BoardEnded` for a screen whose day is over. Officers see any day."""
    day = get_object_or_404(ClubDay, pk=pk)
    if is_officer(request.user):
        return day
    if request.session.get(BOARD_KEY) != day.pk:
        raise Http404(_("No such board."))
    if not links_open(day):
        raise BoardEnded(day)
    return day


def _sides(game) -> list[dict]:
    """Each side of a game: its label (the game's rules name it), players and total,
    and whether it leads (a finished game: whether it won)."""
    rules = game.engine_rules()
    teams = sorted(game.teams.all(), key=lambda t: t.index)
    best = max((t.total for t in teams), default=None)
    leaders = [t for t in teams if t.total == best]
    sides = []
    for team in teams:
        if game.is_finished:
            leads = team.pk == game.winner_id
        else:
            leads = len(leaders) == 1 and team is leaders[0] and game.hand_count > 0
        sides.append(
            {
                "label": rules.team_label(team.index),
                "people": [p.full_name for p in team_people(team)],
                "points": team.total,
                "total": team.total,
                "leads": leads,
            }
        )
    return sides


def _lead_words(game, sides: list[dict]) -> str:
    """One line about who leads: "Team 2 leads by 120", "Level at 1,050", "Team 1 won"."""
    if game.hand_count == 0:
        return _("No hands yet")
    leader = next((s for s in sides if s["leads"]), None)
    if game.is_finished:
        return _("%(side)s won") % {"side": leader["label"]} if leader else _("Finished")
    totals = sorted((s["points"] for s in sides), reverse=True)
    if leader is None:
        return _("Level at %(score)s") % {"score": number_format(totals[0], force_grouping=True)}
    return _("%(side)s leads by %(points)s") % {
        "side": leader["label"],
        "points": number_format(totals[0] - totals[1], force_grouping=True),
    }


def _latest_games(rows: list[dict]) -> dict[int, dict]:
    """The newest game of each table (by table id) from the day's game rows."""
    latest: dict[int, dict] = {}
    for row in rows:
        game = row["game"]
        current = latest.get(game.table_id)
        if current is None or game.number > current["game"].number:
            latest[game.table_id] = row
    return latest


def _shown_tables(day: ClubDay, latest: dict[int, dict]) -> list[Table]:
    """The tables of the rounds in play: every round with a game still playing, or
    else the latest round drawn."""
    tables = list(
        Table.objects.filter(round__day=day)
        .select_related("round")
        .prefetch_related("seats__person")
        .order_by("round__number", "number")
    )
    playing = {t.round.number for t in tables if _is_playing(latest.get(t.pk))}
    if not playing and tables:
        playing = {tables[-1].round.number}
    return [t for t in tables if t.round.number in playing]


def _row_sides(row: dict) -> list[dict]:
    """The row's sides, worked out once (a table's latest game may also be finished)."""
    if "sides" not in row:
        row["sides"] = _sides(row["game"])
    return row["sides"]


def _is_playing(row: dict | None) -> bool:
    return row is not None and not row["finished"]


def _table_entry(table: Table, row: dict | None) -> dict:
    entry = {"table": table, "round": table.round.number, "game": None, "sides": []}
    entry["seated"] = [s.person.full_name for s in table.seats.all()]
    if row is not None:
        game = row["game"]
        sides = _row_sides(row)
        entry.update(game=game, sides=sides, hands=game.hand_count)
        entry["lead"] = _lead_words(game, sides)
    return entry


def day_report(day: ClubDay) -> dict:
    """What the day sheet and the results e-mail say: the board's finished games and
    top six (the games every page counts), the games not counted (still in play, or
    left unfinished when the day closed) and how many hands still wait for the other
    team's OK or are disputed (the results are not final while there are any), and on
    a day with an event, the event's own ranking."""
    report = board(day)
    report["unfinished"] = [r for r in report["rows"] if not r["finished"]]
    report["unconfirmed"] = unconfirmed_hand_counts([day.pk]).get(day.pk, 0)
    # Beside the day's results, the event's own ranking (None, and no query, without).
    report["event_ranking"] = day_event_ranking(day)
    return report


def board(day: ClubDay, *, event: bool = False) -> dict:
    """What the board shows: the tables in play with their current games, then the
    day's finished games and its top six scores; with ``event`` (the day has one, as
    its fingerprint says), the event's clock and next seating first."""
    rows = day_games(day)
    latest = _latest_games(rows)
    tables = [_table_entry(t, latest.get(t.pk)) for t in _shown_tables(day, latest)]
    finished = [r for r in rows if r["finished"]]
    for row in finished:
        _row_sides(row)
    return {
        "day": day,
        "tables": tables,
        "finished": finished,
        "top": top_scores(day, 6) if finished else [],
        "rounds": sorted({t["round"] for t in tables}),
        "rows": rows,
        # Tables playing different games (classic at one, Hand and Foot at another):
        # each table's card names its game. A table of three playing the day's rules
        # for three plays the same game.
        "mixed_rules": len({row["rule_set"] for row in rows}) > 1,
        "event": board_event(day) if event else None,
    }

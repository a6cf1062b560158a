"""Day results: the club days with their numbers, every game of a day, and a day's
top scores (tie-aware).

Also the helpers that name a team's players from a prefetch (:func:`team_prefetch`,
:func:`team_names`), which the club records use too.
"""

from __future__ import annotations

from django.db.models import Count, OuterRef, Prefetch, QuerySet, Subquery
from django.utils.translation import gettext

from members.models import ClubDay, Person
from scoring.models import Game, GameTeam, TeamPlayer
from scoring.results.standings.periods import FINISHED, date_range
from scoring.results.standings.ranking import set_positions


def days_with_results(start=None, end=None) -> QuerySet[ClubDay]:
    """Club days with their finished-game count, players and top score (subqueries, so
    a page of days costs one query whatever the history)."""
    games = Game.objects.filter(day=OuterRef("pk"), status=FINISHED).order_by()
    game_count = games.values("day").annotate(n=Count("pk")).values("n")
    players = (
        TeamPlayer.objects.filter(game__day=OuterRef("pk"), game__status=FINISHED)
        .order_by()
        .values("game__day")
        .annotate(n=Count("person", distinct=True))
        .values("n")
    )
    top = (
        GameTeam.objects.filter(game__day=OuterRef("pk"), game__status=FINISHED)
        .order_by("-total")
        .values("total")[:1]
    )
    qs = ClubDay.objects.filter(date_range("date", start, end))
    return qs.annotate(
        game_count=Subquery(game_count),
        player_count=Subquery(players),
        top_score=Subquery(top),
    ).order_by("-date", "-pk")


def team_prefetch() -> Prefetch:
    """A team's players in seat order, with their people (one query for any number
    of teams)."""
    return Prefetch(
        "memberships",
        queryset=TeamPlayer.objects.select_related("person").order_by("seat", "pk"),
    )


def team_names(team: GameTeam, guests: bool = True) -> str:
    """ "Ann Able & Cat Cole" from a prefetched team."""
    people = [m.person for m in team.memberships.all()]
    return " & ".join(p.display_name if guests else p.full_name for p in people)


def day_games(day: ClubDay) -> list[dict]:
    """Every game of a day, one row each: table, game number, the winning team and
    the other team(s) with their scores, hands, rules, status. Three queries."""
    games = (
        Game.objects.filter(day=day)
        .select_related("table", "table__round")
        .prefetch_related(
            Prefetch("teams", queryset=GameTeam.objects.prefetch_related(team_prefetch()))
        )
        .order_by("table__round__number", "table__number", "number")
    )
    rows = []
    for game in games:
        teams = sorted(game.teams.all(), key=lambda t: t.index)
        winner = next((t for t in teams if t.pk == game.winner_id), None)
        first = winner or max(teams, key=lambda t: t.total, default=None)
        others = [t for t in teams if t is not first]
        # A game in play is led by one side only when it is ahead of every other.
        leading = winner is None and bool(
            game.hand_count and first and all(t.total < first.total for t in others)
        )
        rows.append(
            {
                "game": game,
                "game_id": game.pk,
                "round": game.table.round.number,
                "table": game.table.number,
                "number": game.number,
                "finished": game.is_finished,
                "leading": leading,
                "status": _status(game, day),
                "first_team": team_names(first) if first else "",
                "first_people": team_people(first),
                "first_score": first.total if first else None,
                "other_teams": " / ".join(team_names(t) for t in others),
                "other_sides": [team_people(t) for t in others],
                # Plain digits (the CSV: a spreadsheet reads them as numbers); the page
                # writes other_totals in the reader's language (1.250 in Spanish).
                "other_scores": " / ".join(str(t.total) for t in others),
                "other_totals": [t.total for t in others],
                "other_score": max((t.total for t in others), default=None),
                "margin": (first.total - max(t.total for t in others))
                if first and others
                else None,
                "hands": game.hand_count,
                "rules": game.rules_name,
                # A table of three playing the day's rules for three is the same game.
                "rule_set": game.rule_set_id,
            }
        )
    return rows


def _status(game: Game, day: ClubDay) -> str:
    """ "Finished" (or "Ended early": ended as it stood when the day closed), "Playing",
    or, once the day is closed, "Unfinished" (it counts nowhere)."""
    if game.is_finished:
        return gettext("Ended early") if game.ended_early else gettext("Finished")
    return gettext("Playing") if day.is_open else gettext("Unfinished")


def team_people(team: GameTeam | None) -> list[Person]:
    return [m.person for m in team.memberships.all()] if team else []


def top_scores(day_or_games, n: int = 6) -> list[dict]:
    """The ``n`` highest game scores (a team's final total) of a day's finished games,
    tie-aware: everyone equal to the n-th score is included too. Two queries plus the
    players."""
    teams = GameTeam.objects.filter(game__status=FINISHED)
    if isinstance(day_or_games, ClubDay):
        teams = teams.filter(game__day=day_or_games)
    else:
        teams = teams.filter(game__in=day_or_games)
    cut = list(teams.order_by("-total").values_list("total", flat=True)[n - 1 : n])
    if cut:
        teams = teams.filter(total__gte=cut[0])
    chosen = (
        teams.select_related("game", "game__table")
        .prefetch_related(team_prefetch())
        .order_by("-total", "game__table__number", "game__number", "index")
    )
    rows = []
    for team in chosen:
        rows.append(
            {
                "team": team,
                "game_id": team.game_id,
                "players": team_names(team),
                "people": team_people(team),
                "score": team.total,
                "table": team.game.table.number,
                "game_number": team.game.number,
                "won": team.won,
            }
        )
    set_positions(rows, "score")
    return rows

"""A canonical dump of a generated league, to compare two leagues (same seed → same
rows; bulk-written hands → the rows of recording them one by one).

Only the tests use it, so it lives beside them, not in the generator. Every row is a
plain tuple keyed by natural keys (names, dates, numbers), never by database ids or
"created at" stamps.
"""

from __future__ import annotations

from members.models import ClubDay, Person, Seat, SignIn, Table
from scoring.models import Game, GameTeam, Hand, RatingPoint, Season, TeamHand, TeamPlayer

KEYS = (
    "people",
    "days",
    "signins",
    "tables",
    "seats",
    "games",
    "winners",
    "teams",
    "players",
    "hands",
    "team_hands",
    "ratings",
    "seasons",
)


def canonical_rows() -> dict[str, list]:
    """Every generated row as plain tuples keyed by natural keys (names, dates, numbers),
    never by database ids or "created at" stamps, so two runs can be compared."""
    people = {
        p.pk: (p.kind, p.membership_number or "", p.first_name, p.last_name)
        for p in Person.objects.all()
    }
    rows = _people_and_days(people)
    tables, rows["tables"] = _tables()
    rows["seats"] = sorted(
        (tables[s.table_id], s.position, people[s.person_id]) for s in Seat.objects.all()
    )
    games, rows["games"] = _games(tables, people)
    teams, rows["teams"] = _teams(games)
    rows["winners"] = sorted((games[g.pk], teams.get(g.winner_id)) for g in Game.objects.all())
    rows["players"] = sorted(
        (teams[p.team_id], p.seat, people[p.person_id]) for p in TeamPlayer.objects.all()
    )
    hands, rows["hands"] = _hands(games, people)
    rows["team_hands"] = _team_hands(hands, teams)
    rows["ratings"] = sorted(
        (people[r.person_id], games[r.game_id], str(r.played_on), round(r.ordinal, 9))
        for r in RatingPoint.objects.all()
    )
    rows["seasons"] = sorted((s.name, str(s.start), str(s.end)) for s in Season.objects.all())
    return {key: rows[key] for key in KEYS}


def _people_and_days(people: dict) -> dict[str, list]:
    days = {d.pk: str(d.date) for d in ClubDay.objects.all()}
    return {
        "people": sorted(
            (*people[p.pk], p.status, str(p.joined), p.email, p.phone, people.get(p.brought_by_id))
            for p in Person.objects.all()
        ),
        "days": sorted(
            (str(d.date), d.title, d.status, str(d.closed_at)) for d in ClubDay.objects.all()
        ),
        "signins": sorted(
            (days[s.day_id], people[s.person_id], s.card_shown, people.get(s.brought_by_id))
            for s in SignIn.objects.all()
        ),
    }


def _tables() -> tuple[dict, list]:
    days = {d.pk: str(d.date) for d in ClubDay.objects.all()}
    tables, table_rows = {}, []
    for t in Table.objects.select_related("round"):
        tables[t.pk] = (days[t.round.day_id], t.round.number, t.number)
        table_rows.append((*tables[t.pk], t.room_code, t.token, t.round.seed))
    return tables, sorted(table_rows)


def _games(tables: dict, people: dict) -> tuple[dict, list]:
    games, game_rows = {}, []
    for g in Game.objects.all():
        games[g.pk] = (tables[g.table_id], g.number)
        game_rows.append(
            (
                games[g.pk],
                g.rules_name,
                g.status,
                people.get(g.score_keeper_id),
                people.get(g.first_dealer_id),
                g.hand_count,
                g.version,
                str(g.started_at),
                str(g.finished_at),
            )
        )
    return games, sorted(game_rows)


def _teams(games: dict) -> tuple[dict, list]:
    teams, team_rows = {}, []
    for t in GameTeam.objects.all():
        teams[t.pk] = (games[t.game_id], t.index)
        team_rows.append(
            (
                teams[t.pk],
                t.total,
                t.minimum,
                t.points_against,
                t.hands,
                t.natural_canastas,
                t.mixed_canastas,
                t.red_threes,
                t.times_out,
                t.concealed_outs,
                t.perfect_cuts,
                t.best_hand,
                t.won,
            )
        )
    return teams, sorted(team_rows)


def _hands(games: dict, people: dict) -> tuple[dict, list]:
    hands, hand_rows = {}, []
    for h in Hand.objects.all():
        hands[h.pk] = (games[h.game_id], h.number)
        hand_rows.append(
            (
                hands[h.pk],
                repr(h.inputs),
                people.get(h.dealer_id),
                h.entered_via,
                h.version,
                str(h.created_at),
            )
        )
    return hands, sorted(hand_rows)


def _team_hands(hands: dict, teams: dict) -> list:
    return sorted(
        (
            hands[r.hand_id],
            teams[r.team_id],
            r.melded_points,
            r.natural_canastas,
            r.mixed_canastas,
            r.red_threes,
            r.went_out,
            r.hand_points,
            r.perfect_cut,
            r.penalty_points,
            repr(sorted(r.breakdown.items())),
            r.hand_score,
            r.score_before,
            r.score_after,
            r.minimum_before,
            r.minimum_next,
        )
        for r in TeamHand.objects.all()
    )

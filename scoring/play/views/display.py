"""What every page about a game shows, loaded in a fixed number of queries whatever the
number of hands: its teams and players, hands, scoreboard and next dealer, the hand form
and the table page drawn from them.

The views of the table, of corrections and of games share these helpers; none of them
writes anything.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from functools import lru_cache

from django.contrib.auth import get_user_model
from django.db.models import Prefetch
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.safestring import mark_safe

from members.models import Person
from scoring import engine
from scoring.models import Game, GameTeam, Hand, TeamHand, TeamPlayer
from scoring.play import reads
from scoring.play.forms.hand import HandEntry
from scoring.play.partnerships import dealer_for, seated
from scoring.play.services.failed_melds import failed_meld_counts
from scoring.play.views.confirmations import to_confirm
from scoring.play.views.hands_table import draw_hand_rows

# An empty hand form's per-team boxes, drawn once per team line-up and rule set (see
# _fresh_team_entries) and kept in the process's memory, which a restart (a deployment,
# and so a new template) empties: no query, unlike the shared cache. At most
# ENTRY_BOXES_KEPT line-ups are kept, the first drawn dropped first.
ENTRY_BOXES_KEPT = 256
_entry_boxes: OrderedDict[tuple, str] = OrderedDict()
_entry_boxes_lock = threading.Lock()


@lru_cache(maxsize=4096)
def _url(urlconf, prefix: str, name: str, args: tuple) -> str:
    """``reverse(name, args)``, kept: the same URL for the same game is asked for on
    every poll and save, and a reverse costs a tenth of a millisecond. The URLconf and
    the script prefix (what reverse depends on besides its arguments) are in the key."""
    return reverse(name, args=args, urlconf=urlconf)


def url_for(name: str, *args) -> str:
    return _url(get_urlconf(), get_script_prefix(), name, args)


def game_urls(game: Game) -> dict[str, str]:
    """The game's links the table page shows, by view name without ``scoring:``."""
    urls = {
        name: url_for(f"scoring:{name}", game.pk)
        for name in ("hand_new", "hand_preview", "game", "hand_undo", "next_game")
    }
    urls["hand_detail"] = url_for("scoring:hand_detail", game.pk, 0)
    urls["manifest"] = url_for("manifest")
    urls["service_worker"] = url_for("service_worker")
    return urls


def load_teams(game: Game) -> list[GameTeam]:
    """The game's teams with their players (seat order) and ``label_text`` ("Team 1",
    or "Player 1" when everyone plays alone): one query, the players joined to their
    teams and people (a game whose teams lack players, which the services never make,
    takes two)."""
    rules = game.engine_rules()
    players = reads.players(game.pk)
    teams: dict[int, GameTeam] = {}
    for player in players:
        team = teams.setdefault(player.team_id, player.team)
        player.team = team
    for team in teams.values():
        _keep_memberships(team, [p for p in players if p.team is team])
    if len(teams) != rules.teams:
        queryset = TeamPlayer.objects.select_related("person").order_by("seat", "pk")
        found = GameTeam.objects.filter(game=game).order_by("index")
        teams = {t.pk: t for t in found.prefetch_related(Prefetch("memberships", queryset))}
    for team in teams.values():
        team.label_text = rules.team_label(team.index)
    return list(teams.values())


def _keep_memberships(team: GameTeam, players: list[TeamPlayer]) -> None:
    """Keep ``players`` as ``team.memberships.all()``, as prefetch_related would."""
    # Never run: it only carries these rows (a filter of it would find nothing).
    kept = TeamPlayer.objects.none()
    kept._result_cache = players
    kept._prefetch_done = True
    team._prefetched_objects_cache = {"memberships": kept}


def _hands(game: Game, teams: list[GameTeam], *, entered_by: bool = False) -> list[Hand]:
    """The game's hands in order, each with its confirmation, its dealer and the
    confirmation's player (from the teams' players, read already) and, as
    ``team_rows``, its TeamHand rows in team order: two queries, joining only the
    confirmation (the people's joins cost more than the rows). ``entered_by``: who
    entered each hand, too."""
    hands = (reads.hands_entered_by if entered_by else reads.hands)(game.pk)
    _attach_people(hands, {m.person_id: m.person for t in teams for m in t.memberships.all()})
    place = {team.pk: team.index for team in teams}
    rows: dict[int, list[TeamHand]] = {hand.pk: [] for hand in hands}
    for row in reads.team_hands(game.pk):
        rows.setdefault(row.hand_id, []).append(row)
    for hand in hands:
        hand.team_rows = sorted(rows[hand.pk], key=lambda row: place.get(row.team_id, 0))
    return hands


def _attach_people(hands: list[Hand], people: dict) -> None:
    """Each hand's dealer and its confirmation's player and officer, from ``people``
    {id: Person} (the game's players); anyone else, in one query per kind."""
    confirmations = [c for h in hands if (c := getattr(h, "confirmation", None)) is not None]
    wanted = {h.dealer_id for h in hands} | {c.person_id for c in confirmations}
    missing = wanted - set(people) - {None}
    if missing:
        people = {**people, **Person.objects.in_bulk(missing)}
    for hand in hands:
        if hand.dealer_id is not None:
            hand.dealer = people.get(hand.dealer_id)
    officers = {c.officer_id for c in confirmations} - {None}
    users = get_user_model().objects.in_bulk(officers) if officers else {}
    for confirmation in confirmations:
        if confirmation.person_id is not None:
            confirmation.person = people.get(confirmation.person_id)
        if confirmation.officer_id is not None:
            confirmation.officer = users.get(confirmation.officer_id)


def people_in_seat_order(teams: list[GameTeam]):
    return [m.person for m in seated(m for team in teams for m in team.memberships.all())]


def _board(game: Game, teams: list[GameTeam], failed: list[int]):
    """The scoreboard: per team its players, total and initial-meld requirement."""
    rules = game.engine_rules()
    board = []
    for team in teams:
        n = failed[team.index] if team.index < len(failed) else 0
        board.append(
            {
                "team": team,
                "label": rules.team_label(team.index),
                "names": team.player_names,
                "total": team.total,
                "minimum": engine.initial_meld_minimum(rules, team.total, n),
                "base_minimum": engine.initial_meld_minimum(rules, team.total),
                "failed": n,
                "is_winner": game.winner_id == team.pk,
            }
        )
    return board


def _hand_rows(game: Game, hands: list[Hand], labels: dict[int, str]):
    """The hands table's rows: each hand, its team rows (labelled) and what each cell
    shows, written here once ("1,480" and "+80", as ``intcomma`` writes them in the
    club's language) rather than through a filter per cell."""
    rows = []
    for h in hands:
        team_hands = h.team_rows
        for th in team_hands:
            th.label_text = labels.get(th.team_id, "")
        cells = [(f"{th.score_after:,}", f"{'+' if th.hand_score >= 0 else ''}{th.hand_score:,}")
                 for th in team_hands]  # fmt: skip
        edit_url = url_for("scoring:hand_edit", game.pk, h.number)
        rows.append({"hand": h, "teams": team_hands, "cells": cells, "edit_url": edit_url})
    return rows


def labelled(rows, rules):
    """TeamHand rows with their team's label ("Team 1") as ``label_text``."""
    rows = list(rows)
    for k, row in enumerate(rows):
        row.label_text = rules.team_label(k)
    return rows


def game_context(request, game: Game, access, *, teams=None, entered_by=False, **extra):
    """Everything the table page shows. ``teams``: the game's teams, when the view has
    loaded them already (and nothing changed them since); ``entered_by``: who entered
    each hand (the game page shows it)."""
    teams = load_teams(game) if teams is None else teams
    hands = _hands(game, teams, entered_by=entered_by)
    rules = game.engine_rules()
    order = people_in_seat_order(teams)
    order_ids = [p.pk for p in order]
    next_dealer_id = dealer_for(game, game.hand_count + 1, order_ids)
    next_dealer = next((p for p in order if p.pk == next_dealer_id), None)
    failed = failed_meld_counts(game)
    labels = {team.pk: team.label_text for team in teams}
    winner = next((t for t in teams if t.pk == game.winner_id), None)
    hand_rows = _hand_rows(game, hands, labels)
    ctx = {
        "game": game,
        "table": game.table,
        "day": game.day,
        "access": access,
        "rules": rules,
        "teams": teams,
        "board": _board(game, teams, failed),
        "hand_rows": hand_rows,
        "hand_rows_html": draw_hand_rows(hand_rows, access.can_edit),
        "last_hand": hands[-1] if hands else None,
        "next_dealer": next_dealer,
        "seat_order": order,
        "winner": winner,
        "to_confirm": to_confirm(hands, teams, officer=access.is_officer),
    }
    ctx.update(extra)
    return ctx


def hand_entry(game: Game, teams, data=None, **kw) -> HandEntry:
    return HandEntry(game.engine_rules(), teams, data, **kw)


def _fresh_team_entries(entry: HandEntry) -> str:
    """The per-team boxes of an empty hand form, rendered once per team line-up and
    rule set and then taken from memory (they are the same for every hand of a game):
    about 120 boxes, most of a table page's rendering time."""
    shape = (
        entry.team_shape,
        entry.rules.perfect_cut_enabled,
        entry.rules.perfect_cut_bonus,
        entry.rules.players_per_team,
        tuple(sorted(entry.rules.penalty_amounts.items())),
    )
    html = _entry_boxes.get(shape)  # a hit (nearly every page) takes no lock
    if html is None:
        html = render_to_string("scoring/_team_entries.html", {"entry": entry})
        with _entry_boxes_lock:  # a threaded worker's requests share the dict
            _entry_boxes[shape] = html
            while len(_entry_boxes) > ENTRY_BOXES_KEPT:
                _entry_boxes.popitem(last=False)
    return mark_safe(html)


def render_table(request, game, access, *, entry=None, status=200, teams=None, **extra):
    ctx = game_context(request, game, access, teams=teams, **extra)
    if not game.is_finished and access.can_edit and entry is None:
        entry = hand_entry(game, ctx["teams"], number=game.hand_count + 1)
        ctx["team_entries_html"] = _fresh_team_entries(entry)
    ctx["entry"] = entry
    ctx["urls"] = game_urls(game)
    return render(request, "scoring/table.html", ctx, status=status)

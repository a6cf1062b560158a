"""What every page about a game shows, loaded in a fixed number of queries whatever the
number of hands: its teams and players, hands, scoreboard and next dealer, the hand form
and the table page drawn from them.

The views of the table, of corrections and of games share these helpers; none of them
writes anything. When two phones saved different numbers for the same hand, the second
is shown both hands side by side (:func:`conflict_context`); the hands that wait for
the other team's OK are the confirmation panel (:func:`to_confirm`).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from functools import lru_cache

from django.db.models import Prefetch
from django.shortcuts import render
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from members.models import Person
from scoring import engine
from scoring.models import Game, GameTeam, Hand, HandConfirmation, TeamHand, TeamPlayer
from scoring.play.forms.hand import hand_entry
from scoring.play.partnerships import seated
from scoring.play.services.confirmations import confirmers
from scoring.play.services.hands import failed_meld_counts, recent_keys, valid_key


def game_urls(game: Game) -> dict[str, str]:
    """The game's links the table page shows, by view name without ``scoring:``."""
    urls = {
        name: address(f"scoring:{name}", game.pk)
        for name in ("hand_new", "hand_preview", "hand_replace", "game", "hand_undo", "next_game")
    }
    urls["hand_detail"] = address("scoring:hand_detail", game.pk, 0)
    urls["manifest"] = address("manifest")
    urls["service_worker"] = address("service_worker")
    urls["home"] = address("home")  # the club's root: the service worker's scope
    return urls


def address(name: str, *args) -> str:
    """``reverse(name, args=args)``, worked out once per worker for each club prefix
    (a table page names about twenty addresses, each the same on every redraw)."""
    return _address(get_script_prefix(), get_urlconf(), name, args)


@lru_cache(maxsize=8192)
def _address(prefix, urlconf, name, args) -> str:
    return reverse(name, args=args, urlconf=urlconf)


def load_teams(game: Game) -> list[GameTeam]:
    """The game's teams in order with their players (seat order, with their people) as
    ``memberships`` and ``label_text`` ("Team 1", or "Player 1" when everyone plays
    alone): one query, the players joined to their teams and people (put in order
    here: a handful of rows)."""
    rules = game.engine_rules()
    players = sorted(
        TeamPlayer.objects.filter(game_id=game.pk).select_related("team", "person").order_by(),
        key=lambda p: (p.team.index, p.seat or 0, p.pk),
    )
    found: dict[int, GameTeam] = {}
    seats: dict[int, list[TeamPlayer]] = {}
    for player in players:
        team = found.setdefault(player.team_id, player.team)
        seats.setdefault(team.pk, []).append(player)
        player.team = team
    teams = list(found.values())
    if not players:  # a game without players (never made by the services)
        teams = list(GameTeam.objects.filter(game=game).order_by("index"))
    for team in teams:
        team.game = game
        team.label_text = rules.team_label(team.index)
        # What prefetch_related("memberships") keeps, as the list it is: the pages
        # iterate it (a filter or count on it fails loudly instead of reading again).
        team._prefetched_objects_cache = {"memberships": seats.get(team.pk, [])}
    return teams


def _hands(game: Game, teams: list[GameTeam], *, entered_by: bool = False) -> list[Hand]:
    """The game's hands in order, each with its confirmation (and the confirmation's
    player and officer) and, as ``team_rows``, its team rows in team order: two queries.
    The table page reads of each row only its scores (:class:`Scores`); with
    ``entered_by`` (the game page) whole TeamHand rows, and who entered each hand."""
    related = ["confirmation__person", "confirmation__officer"]
    hands = Hand.objects.filter(game=game).order_by("number")
    if entered_by:
        related.append("entered_by")
        rows = TeamHand.objects.order_by("team__index")
        hands = hands.prefetch_related(Prefetch("team_hands", queryset=rows, to_attr="team_rows"))
        return list(hands.select_related(*related))
    hands = list(hands.select_related(*related).defer("inputs", "entered_via", "created_at"))
    index = {team.pk: team.index for team in teams}
    by_hand: dict[int, list[Scores]] = {}
    # By their hands: the club's index of team hands by hand, whatever SQLite knows.
    scores = TeamHand.objects.filter(hand_id__in=[hand.pk for hand in hands]).order_by()
    for hand_id, team_id, hand_score, after in scores.values_list(
        "hand_id", "team_id", "hand_score", "score_after"
    ):
        by_hand.setdefault(hand_id, []).append(Scores(team_id, hand_score, after))
    for hand in hands:
        hand.team_rows = sorted(by_hand.get(hand.pk, ()), key=lambda r: index.get(r.team_id, 0))
    return hands


class Scores:
    """A team's row of a hand as the table page shows it: the hand's score and the new
    total (``label_text``: the team's label, set by the page)."""

    __slots__ = ("team_id", "hand_score", "score_after", "label_text")

    def __init__(self, team_id: int, hand_score: int, score_after: int):
        self.team_id, self.hand_score, self.score_after = team_id, hand_score, score_after
        self.label_text = ""


def people_in_seat_order(teams: list[GameTeam]):
    return [m.person for m in seated(m for team in teams for m in team.memberships.all())]


def _board(game: Game, teams: list[GameTeam], failed: list[int]):
    """The scoreboard: per team its players, total and initial-meld requirement."""
    rules = game.engine_rules()
    hand = game.hand_count + 1  # the next hand's minimums (Hand and Foot's go by hand)
    board = []
    for team in teams:
        n = failed[team.index] if team.index < len(failed) else 0
        board.append(
            {
                "team": team,
                "label": rules.team_label(team.index),
                "names": team.player_names,
                "total": team.total,
                "minimum": engine.initial_meld_minimum(rules, team.total, n, hand),
                "base_minimum": engine.initial_meld_minimum(rules, team.total, 0, hand),
                "failed": n,
                "is_winner": game.winner_id == team.pk,
            }
        )
    return board


def _hand_rows(game: Game, hands: list[Hand], labels: dict[int, str], people: dict):
    """The hands table's rows: each hand, its team rows (labelled) and what the table
    shows of them in words (the new totals and hand scores with their thousands
    separators, who dealt, the address that corrects it), put together once here
    rather than by a dozen template tags a row. ``people``: the players by id (the
    dealers are among them)."""
    missing = {h.dealer_id for h in hands if h.dealer_id and h.dealer_id not in people}
    if missing:  # a dealer no longer among the players (never made by the services)
        people = {**people, **Person.objects.in_bulk(missing)}
    rows = []
    for h in hands:
        for th in h.team_rows:
            th.label_text = labels.get(th.team_id, "")
        dealer = people.get(h.dealer_id)
        rows.append(
            {
                "hand": h,
                "teams": h.team_rows,
                "cells": [(grouped(th.score_after), signed(th.hand_score)) for th in h.team_rows],
                "dealt": _("%(name)s dealt") % {"name": dealer.first_name} if dealer else "",
                "words": _("hand %(number)s") % {"number": h.number},
                "edit": address("scoring:hand_edit", game.pk, h.number),
            }
        )
    return rows


def grouped(number: int) -> str:
    """``1250`` -> ``"1,250"`` (``"1.250"`` in Spanish and Portuguese)."""
    return number_format(number, force_grouping=True)


def signed(number: int) -> str:
    """``+1,250``, ``-80``: a hand score with its sign."""
    return ("+" if number >= 0 else "") + grouped(number)


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
    next_dealer_id = game.dealer_for(game.hand_count + 1, order_ids)
    next_dealer = next((p for p in order if p.pk == next_dealer_id), None)
    failed = failed_meld_counts(game)
    labels = {team.pk: team.label_text for team in teams}
    winner = next((t for t in teams if t.pk == game.winner_id), None)
    ctx = {
        "game": game,
        "table": game.table,
        "day": game.day,
        "access": access,
        "rules": rules,
        "teams": teams,
        "board": _board(game, teams, failed),
        "hand_rows": _hand_rows(game, hands, labels, {p.pk: p for p in order}),
        "last_hand": hands[-1] if hands else None,
        "next_dealer": next_dealer,
        "seat_order": order,
        # The score keeper is one of the players (the phone-name box offers the name).
        "score_keeper": next((p for p in order if p.pk == game.score_keeper_id), None),
        "winner": winner,
        "to_confirm": to_confirm(hands, teams, officer=access.is_officer),
    }
    ctx.update(extra)
    return ctx


def new_key() -> str:
    """The key of a freshly drawn hand form (22 URL-safe characters)."""
    return secrets.token_urlsafe(16)


def render_table(
    request,
    game,
    access,
    *,
    entry=None,
    status=200,
    teams=None,
    answers_save=False,
    form_key=None,
    **extra,
):
    """The table page. Its form carries ``form_key``, else the key posted (when a posted
    form is drawn again: nothing was written under it), else a new one; the page names
    the game's latest keys and, with ``answers_save``, the key of the save (or replace)
    it answers: the phone drops a save it kept once either names it."""
    posted = request.POST.get("key") if request.method == "POST" else None
    posted = posted if valid_key(posted) else None
    ctx = game_context(request, game, access, teams=teams, **extra)
    if not game.is_finished and access.can_edit and entry is None:
        entry = hand_entry(game, ctx["teams"], number=game.hand_count + 1)
    ctx["entry"] = entry
    ctx["urls"] = game_urls(game)
    ctx["form_key"] = form_key or posted or new_key()
    ctx["saved_keys"] = recent_keys(game)
    ctx["posted_key"] = posted if answers_save else None
    return render(request, "scoring/table.html", ctx, status=status)


def redraw(
    request, game, access, *, saving=False, number=None, refusals=None, conflict=None, **extra
):
    """The table page with the hand form as posted (everything typed kept): with the
    engine's ``refusals`` on its boxes, or with ``conflict`` (the hand another phone
    saved first and the words that say so) beside what was typed. ``saving``: it
    answers a Save (a refused or conflicting one), so the phone stops keeping it."""
    teams = load_teams(game)
    number = number or game.hand_count + 1
    entry = hand_entry(game, teams, request.POST, number=number, saving=saving)
    valid = entry.is_valid()
    if valid and refusals:
        entry.inputs()  # the refusals' paths name the meld and penalty rows read here
        entry.apply_refusals(refusals)
    if conflict is not None:
        hand, message = conflict
        extra["conflict"] = conflict_context(game, entry, hand, message)
    elif saving:
        # The bar by Save says the hand was not saved (what to fix is above the pad).
        extra.setdefault("preview", {"not_saved": True})
    answers = saving or conflict is not None
    return render_table(
        request, game, access, entry=entry, teams=teams, answers_save=answers, **extra
    )


# ---------------------------------------------------------------------------------------
# Two phones saved different numbers for the same hand: the second one is shown both
# hands side by side, item by item with the differences marked (the template puts them
# in words), and chooses to keep the saved hand or to replace it with its own
# (``table.hand_replace``).


def conflict_context(game, entry, existing, message: str) -> dict:
    """What the conflict panel shows: the saved hand and what was typed, per side, as
    entered (``saved``, ``typed``: put in words item by item by the panel's template,
    :mod:`scoring.templatetags.hand_words`) and as scored (``scores``: the hand score
    and the total after, saved and typed, "—" where what was typed does not score)."""
    conflict = {"message": message, "hand": existing}
    if existing is None:
        return conflict
    rules = game.engine_rules()
    saved_rows = list(TeamHand.objects.filter(hand=existing).order_by("team__index"))
    typed = entry.inputs()
    outcome = engine.score_hand(
        rules, typed, [r.score_before for r in saved_rows] or None, existing.number
    )
    sides = []
    for k, row in enumerate(saved_rows):
        mine = outcome.teams[k] if outcome.ok and k < len(outcome.teams) else None
        scores = (
            (signed(row.hand_score), signed(mine.hand_score) if mine else "—"),
            (grouped(row.score_after), grouped(mine.score_after) if mine else "—"),
        )
        saved = existing.inputs[k] if k < len(existing.inputs) else {}
        sides.append(
            {"label": rules.team_label(k), "saved": saved, "typed": typed[k], "scores": scores}
        )
    conflict["sides"] = sides
    return conflict


# ---------------------------------------------------------------------------------------
# The confirmation panel: the hands that wait for the other team's OK (the taps go to
# :mod:`scoring.play.views.confirmations`).


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

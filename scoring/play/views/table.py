"""The table page and entering hands at it: the page itself (or the seats, before the
first game), saving the next hand, counting a failed initial meld, and the live preview.

Every write goes through :mod:`scoring.play.services`; a refusal is shown on the form
with everything typed kept.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponseNotAllowed
from django.shortcuts import redirect, render
from django.urls import reverse

from clubsite.params import whole_number
from members.models import Seat
from scoring.models import Game, TeamHand
from scoring.play.access import game_for_request, shows_closed_day, table_for_request
from scoring.play.services.errors import GameClosed, HandConflict, HandRefused
from scoring.play.services.failed_melds import count_failed_meld
from scoring.play.services.hands import record_hand
from scoring.play.views.display import hand_entry, labelled, load_teams, render_table
from scoring.play.views.preview import preview_panel, top_errors_of


@shows_closed_day
def table(request, table_pk):
    access = table_for_request(request, table_pk)
    game = (
        Game.objects.filter(table=access.table)
        .select_related("table__round", "day")
        .order_by("-number")
        .first()
    )
    if game is None:
        seats = list(
            Seat.objects.filter(table=access.table).select_related("person").order_by("position")
        )
        return render(
            request,
            "scoring/table_empty.html",
            {"table": access.table, "day": access.day, "access": access, "seats": seats},
        )
    return render_table(request, game, access)


def _as_number(request, default):
    return whole_number(request.POST.get("as_number"), digits=5, default=default)


@shows_closed_day
def hand_new(request, game_pk):
    """Save the next hand (or, with ``action``: preview it, or count a failed initial
    meld). GET goes back to the table page."""
    if request.method != "POST":
        game, access = game_for_request(request, game_pk)
        return redirect("scoring:table", table_pk=game.table_id)
    game, access = game_for_request(request, game_pk, edit=True)
    if game.is_finished:
        messages.info(request, f"Game {game.number} is over; no more hands can be added.")
        return redirect("scoring:table", table_pk=game.table_id)
    action = str(request.POST.get("action", "save"))[:20]
    if action != "save":
        teams = load_teams(game)
        entry = hand_entry(game, teams, request.POST, number=game.hand_count + 1)
        if action == "preview":
            preview = preview_panel(game, entry, teams)
            return render_table(request, game, access, entry=entry, preview=preview, teams=teams)
        if action.startswith(("failed-", "unfailed-")):
            return _failed_meld(request, game, access, entry, teams, action)
    # Saving reads no team before the service locks them: the form only needs how many.
    entry = hand_entry(game, _unnamed_teams(game), request.POST, number=game.hand_count + 1)
    if not entry.is_valid():
        return _draw_again(request, game, access)
    number = _as_number(request, entry.number)
    try:
        hand = record_hand(
            game,
            entry.inputs(),
            number=number,
            user=access.user_for_history,
            via=access.via,
        )
    except HandRefused as exc:
        return _draw_again(request, game, access, refusals=exc.errors)
    except HandConflict as exc:
        return _show_conflict(request, game, access, exc)
    except GameClosed as exc:
        messages.error(request, exc.message)
        return redirect("scoring:table", table_pk=game.table_id)
    messages.success(request, f"Hand {hand.number} saved. {_saved_summary(game, hand)}.")
    return redirect(reverse("scoring:table", args=[game.table_id]) + "#scoreboard")


def _unnamed_teams(game) -> list[None]:
    return [None] * game.engine_rules().teams


def _draw_again(request, game, access, refusals=None):
    """The table page with the form as typed (and the engine's refusals on it)."""
    teams = load_teams(game)
    entry = hand_entry(game, teams, request.POST, number=game.hand_count + 1)
    if entry.is_valid() and refusals:
        entry.inputs()  # the refusals' paths name the meld and penalty rows read here
        entry.apply_refusals(refusals)
    return render_table(request, game, access, entry=entry, teams=teams)


def _failed_meld(request, game, access, entry, teams, action: str):
    """``failed-1`` / ``unfailed-1``: count (or take back) team 1's failed initial meld;
    the form is drawn again with what was typed."""
    kind, _, index = action.partition("-")
    team_index = whole_number(index, digits=2)
    if team_index is not None:
        try:
            count_failed_meld(game, team_index, step=1 if kind == "failed" else -1)
        except GameClosed as exc:
            messages.error(request, exc.message)
            return redirect("scoring:table", table_pk=game.table_id)
    return render_table(request, game, access, entry=entry, teams=teams)


def _show_conflict(request, game, access, exc: HandConflict):
    """Another device saved this hand first: show its hand beside what was typed."""
    existing = exc.existing_hand
    conflict = {"message": exc.message, "hand": existing}
    if existing is not None:
        conflict["rows"] = labelled(
            TeamHand.objects.filter(hand=existing).order_by("team__index"),
            game.engine_rules(),
        )
    game.refresh_from_db()
    teams = load_teams(game)  # as the other device left them
    entry = hand_entry(game, teams, request.POST, number=game.hand_count + 1)
    entry.is_valid()
    conflict["next_number"] = game.hand_count + 1
    return render_table(request, game, access, entry=entry, conflict=conflict, teams=teams)


def _saved_summary(game, hand) -> str:
    """ "Team 1 +1,250 → 3,100; Team 2 +80 → 1,420" for the saved message."""
    rows = getattr(hand, "team_rows", None) or TeamHand.objects.filter(hand=hand).order_by(
        "team__index"
    )
    rules = game.engine_rules()
    return "; ".join(
        f"{rules.team_label(k)} {row.hand_score:+,} → {row.score_after:,}"
        for k, row in enumerate(rows)
    )


@shows_closed_day
def hand_preview(request, game_pk):
    """The live preview (htmx): the breakdown and new totals of what is typed."""
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    game, access = game_for_request(request, game_pk, edit=True)
    teams = load_teams(game)
    entry = hand_entry(game, teams, request.POST)
    preview = preview_panel(game, entry, teams)
    if not request.htmx:
        # Without JavaScript the Preview button posts to the form's own page instead;
        # this keeps a direct visit useful.
        return render_table(request, game, access, entry=entry, preview=preview, teams=teams)
    return render(
        request,
        "scoring/_preview.html",
        {"preview": preview, "entry": entry, "form_errors": top_errors_of(entry)},
    )

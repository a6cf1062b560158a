"""The table page and entering hands at it, one small view per button of the hand form
(each posts to its own address with ``formaction``, which works without JavaScript):
the page itself (or the seats, before the first game), saving the next hand
(:func:`hand_new`), replacing a hand another phone saved first (:func:`hand_replace`),
counting or taking back a failed initial meld (:func:`failed_meld`,
:func:`failed_meld_back`) and the live preview (:func:`hand_preview`). After a write
the browser is sent back to the table page (POST/redirect/GET).

Every write goes through :mod:`scoring.play.services`; a refusal is shown on the form
with everything typed kept. Each form carries a key made when it was drawn (``key``):
sending it again (a double tap, a reload, a hand kept on the phone while offline) gets
the first answer and writes nothing (:mod:`scoring.play.services.hands`).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponseNotAllowed
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from clubsite.params import whole_number
from members.clubs.pwa import keeps_offline
from members.models import Seat
from scoring.models import Game, Hand, TeamHand
from scoring.play.access import game_for_request, shows_closed_day, table_for_request
from scoring.play.forms.hand import hand_entry
from scoring.play.services.errors import GameClosed, HandRefused
from scoring.play.services.hands import (
    HandConflict,
    StaleEdit,
    count_failed_meld,
    replace_hand,
    submit_hand,
    valid_key,
)
from scoring.play.views.display import (
    grouped,
    load_teams,
    new_key,
    redraw,
    render_table,
    signed,
)
from scoring.play.views.preview import preview_panel


def _to_table(game, anchor=""):
    """The table page, from its top: the message, then the scoreboard, both in view."""
    return redirect(
        reverse("scoring:table", args=[game.table_id]) + (f"#{anchor}" if anchor else "")
    )


@keeps_offline
@shows_closed_day
def table(request, table_pk):
    access = table_for_request(request, table_pk)
    request.table_day = access.day  # for keeps_offline's header
    game = Game.objects.filter(table=access.table).order_by("-number").first()
    if game is None:
        seats = list(
            Seat.objects.filter(table=access.table).select_related("person").order_by("position")
        )
        return render(
            request,
            "scoring/table_empty.html",
            {"table": access.table, "day": access.day, "access": access, "seats": seats},
        )
    game.table = access.table  # with its round and day, read by the access check
    if game.day_id == access.day.pk:
        game.day = access.day
    return render_table(request, game, access)


def _game(request, game_pk):
    """The game and the viewer's access; a write (POST) needs the right to enter hands."""
    return game_for_request(request, game_pk, edit=request.method == "POST")


@shows_closed_day
def hand_new(request, game_pk):
    """Save the next hand (the form's Save). GET goes back to the table page.

    Each other button of the form posts to its own view (``formaction``): the preview,
    a failed initial meld, replacing a hand another phone saved first. A page drawn
    before they had their own addresses may still post them here: nothing is written
    and the table page is shown again (the phone keeps what was typed)."""
    game, access = _game(request, game_pk)
    if request.method != "POST" or request.POST.get("action", "save") != "save":
        return _to_table(game)
    # Saving reads no team before the service locks them: the form only needs how many.
    entry = hand_entry(
        game, _unnamed_teams(game), request.POST, number=game.hand_count + 1, saving=True
    )
    if not entry.is_valid():
        if game.is_finished:  # no form to show what is wrong on
            messages.info(request, _game_over(game))
            return _to_table(game)
        return redraw(request, game, access, saving=True)
    try:
        done = submit_hand(
            game,
            entry.inputs(),
            key=request.POST.get("key"),
            number=entry.number,
            user=access.user_for_history,
            via=access.via,
            confirmed=request.POST.get("confirmed") == "yes",
        )
    except HandRefused as exc:
        # A refusal the players may overrule offers its box by the Save button.
        return redraw(request, game, access, saving=True, refusals=exc.errors, confirm=exc.confirm)
    except HandConflict as exc:
        # Another phone saved this hand first (the game's last hand too): both versions,
        # with the scoreboard as that phone left it.
        game.refresh_from_db()
        conflict = (exc.existing_hand, exc.message)
        return redraw(request, game, access, number=entry.number, conflict=conflict)
    except GameClosed as exc:  # a hand after the game's last (a repeat is answered)
        messages.error(request, exc.message)
        return _to_table(game)
    messages.success(request, _saved_message(game, done))
    return _to_table(game)


def _game_over(game) -> str:
    return _("Game %(number)s is over; no more hands can be added.") % {"number": game.number}


@shows_closed_day
def hand_replace(request, game_pk):
    """The keeper saw the hand another phone saved and chose to replace it with theirs
    (the conflict's "Replace it with mine"). GET goes back to the table page."""
    game, access = _game(request, game_pk)
    if request.method != "POST":
        return _to_table(game)
    entry = hand_entry(game, _unnamed_teams(game), request.POST, saving=True)
    if not entry.is_valid():
        return redraw(request, game, access, saving=True)
    number = whole_number(request.POST.get("replace_number"), digits=5)
    version = whole_number(request.POST.get("replace_version"), digits=9)
    hand = Hand.objects.filter(game=game, number=number).first() if number else None
    if hand is None:
        messages.error(request, _("That hand is no longer saved; nothing was replaced."))
        return _to_table(game)
    try:
        done = replace_hand(
            hand,
            entry.inputs(),
            key=request.POST.get("key"),
            expected_version=version,
            user=access.user_for_history,
            via=access.via,
        )
    except HandRefused as exc:
        message = _("Hand %(number)s was not replaced.") % {"number": hand.number}
        conflict = (hand, message)
        return redraw(request, game, access, saving=True, refusals=exc.errors, conflict=conflict)
    except StaleEdit as exc:
        if exc.current_hand is None:
            messages.error(request, exc.message)
            return _to_table(game)
        conflict = (exc.current_hand, exc.message)
        return redraw(request, game, access, saving=True, conflict=conflict)
    messages.success(
        request,
        _(
            "Hand %(number)s replaced with what you typed; the game's history keeps the hand "
            "it replaced."
        )
        % {"number": done.number},
    )
    return _to_table(game, anchor=f"hand-{done.number}")


def _unnamed_teams(game) -> list[None]:
    return [None] * game.engine_rules().teams


@shows_closed_day
def failed_meld(request, game_pk, side):
    """Count a failed initial meld of side ``side`` (0, 1, 2) in the hand being played."""
    return _count_failed_meld(request, game_pk, side, step=1)


@shows_closed_day
def failed_meld_back(request, game_pk, side):
    """Take back a failed initial meld of side ``side`` counted by mistake."""
    return _count_failed_meld(request, game_pk, side, step=-1)


def _count_failed_meld(request, game_pk, side: int, *, step: int):
    """Once per form key and only for the hand being played; the form is drawn again
    with what was typed (and a new key: the next tap is a new one)."""
    game, access = _game(request, game_pk)
    if request.method != "POST":
        return _to_table(game)
    key = request.POST.get("key")
    kind = "failed" if step > 0 else "unfailed"
    try:
        count_failed_meld(
            game,
            side,
            step=step,
            hand=whole_number(request.POST.get("number"), digits=5, default=0),
            key=f"{key}-{kind}-{side}" if valid_key(key) else None,
        )
    except GameClosed as exc:
        messages.error(request, exc.message)
        return _to_table(game)
    return redraw(request, game, access, form_key=new_key())


def _saved_message(game, done) -> str:
    """ "Hand 6 saved. Team 1 +1,250 → 3,100; Team 2 +80 → 1,420." (the same words for
    a repeat of the same send)."""
    if done.hand is None:
        return _("Hand %(number)s was saved earlier (it has since been undone).") % {
            "number": done.number
        }
    rows = getattr(done.hand, "team_rows", None) or TeamHand.objects.filter(
        hand=done.hand
    ).order_by("team__index")
    rules = game.engine_rules()
    summary = "; ".join(
        f"{rules.team_label(k)} {signed(row.hand_score)} → {grouped(row.score_after)}"
        for k, row in enumerate(rows)
    )
    return _("Hand %(number)s saved. %(summary)s.") % {"number": done.number, "summary": summary}


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
    context = {"preview": preview, "form_errors": entry.problems()}
    return render(request, "scoring/_preview.html", context)


@require_GET
@shows_closed_day
def hand_detail(request, game_pk, side):
    """One side's card-by-card boxes, empty, for a page that opens them on a tap (the
    page leaves them out until then, to stay small on a phone)."""
    game, _access = game_for_request(request, game_pk, edit=True)
    entry = hand_entry(game, load_teams(game))
    if not 0 <= side < len(entry.teams):
        raise Http404(_("No such side."))
    return render(request, "scoring/_detail_panel.html", {"tf": entry.teams[side], "index": side})

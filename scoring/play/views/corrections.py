"""Correcting an earlier hand and undoing the last one.

A correction carries the hand's version from when its form was drawn: if the hand
changed since, the page shows it as saved now beside what was typed, and nothing is
saved. An undo carries the number of hands the device saw, for the same reason.
"""

from __future__ import annotations

from django.contrib import messages
from django.db.models import Prefetch
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from clubsite.params import whole_number
from scoring.models import Hand, TeamHand
from scoring.play.access import game_for_request, shows_closed_day
from scoring.play.forms.hand import BLANK_CORRECTION_MESSAGE, hand_entry
from scoring.play.services.errors import HandRefused
from scoring.play.services.hands import StaleEdit, correct_hand, undo_last_hand
from scoring.play.views.display import labelled, load_teams
from scoring.play.views.preview import preview_panel


@shows_closed_day
def hand_edit(request, game_pk, number):
    game, access = game_for_request(request, game_pk, edit=True)
    hand = get_object_or_404(Hand.objects.select_related("entered_by"), game=game, number=number)
    teams = load_teams(game)
    ctx = {"game": game, "table": game.table, "hand": hand, "access": access, "teams": teams}
    if request.method != "POST":
        entry = hand_entry(
            game, teams, inputs=hand.inputs, number=hand.number, version=hand.version
        )
        return _render_edit(request, ctx, entry)
    action = str(request.POST.get("action", "save"))
    entry = hand_entry(
        game,
        teams,
        request.POST,
        number=hand.number,
        version=hand.version,
        saving=action != "preview",
        blank_message=BLANK_CORRECTION_MESSAGE,
    )
    if action == "preview":
        return _render_edit(request, ctx, entry, preview=preview_panel(game, entry, teams))
    if not entry.is_valid():
        return _render_edit(request, ctx, entry)
    if entry.number != hand.number:
        entry.top_errors.append(_("This form is for another hand; reload the page."))
        return _render_edit(request, ctx, entry)
    version = entry.version if entry.version is not None else -1
    try:
        correct_hand(
            hand,
            entry.inputs(),
            expected_version=version,
            user=access.user_for_history,
            via=access.via,
        )
    except HandRefused as exc:
        entry.apply_refusals(exc.errors)
        return _render_edit(request, ctx, entry)
    except StaleEdit as exc:
        current = exc.current_hand
        if current is None:
            messages.error(request, exc.message)
            return redirect("scoring:table", table_pk=game.table_id)
        data = request.POST.copy()
        data["version"] = str(current.version)
        entry = hand_entry(game, teams, data, number=hand.number, version=current.version)
        # The page shows the hand as saved now ("As saved now"), beside what was typed.
        stale = {"message": exc.message, "hand": current}
        return _render_edit(request, ctx, entry, stale=stale)
    messages.success(
        request,
        _("Hand %(number)s corrected; the totals after it were recomputed.")
        % {"number": hand.number},
    )
    # Back to the table, where the next hand is entered.
    return redirect(reverse("scoring:table", args=[game.table_id]) + f"#hand-{hand.number}")


def _render_edit(request, ctx, entry, **extra):
    ctx = {**ctx, "entry": entry, **extra}
    rows = TeamHand.objects.filter(hand=ctx["hand"]).order_by("team__index")
    ctx["saved_rows"] = labelled(rows, ctx["game"].engine_rules())
    return render(request, "scoring/hand_edit.html", ctx)


@shows_closed_day
def hand_undo(request, game_pk):
    game, access = game_for_request(request, game_pk, edit=True)
    if request.method != "POST":
        last = (
            Hand.objects.filter(game=game)
            .order_by("-number")
            .prefetch_related(
                Prefetch("team_hands", queryset=TeamHand.objects.order_by("team__index"))
            )
            .first()
        )
        if last is None:
            messages.info(request, _("There is no hand to undo."))
            return redirect("scoring:table", table_pk=game.table_id)
        rows = labelled(last.team_hands.all(), game.engine_rules())
        return render(
            request,
            "scoring/hand_undo.html",
            {"game": game, "table": game.table, "hand": last, "rows": rows},
        )
    expected = whole_number(request.POST.get("hand_count"), digits=5, default=-1)
    try:
        undone = undo_last_hand(
            game, expected_hand_count=expected, user=access.user_for_history, via=access.via
        )
    except StaleEdit as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            _("Hand %(number)s was undone; the history keeps it. Enter it again if needed.")
            % {"number": undone.number},
        )
    return redirect("scoring:table", table_pk=game.table_id)

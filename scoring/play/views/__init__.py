"""Scoring at the table: room codes and table links, the table page, entering,
previewing, correcting and undoing hands, starting games, table cards, rule sets.

Views stay thin: parse, check access (`scoring.play.access`), call a service
(`scoring.play.services`, the only code that writes scores), render. No view computes a
score: the engine does, through the services or `services.preview_hand`.
"""

from __future__ import annotations

import hashlib

import segno
from django.contrib import messages
from django.core.cache import cache
from django.db.models import Prefetch
from django.http import HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import mark_safe
from django.utils.text import slugify
from django.views.decorators.http import require_POST

from clubsite.params import whole_number
from members.models import ClubDay, Seat, SignIn, Table
from members.permissions import officer_required
from scoring import engine
from scoring.models import DayRules, Game, GameTeam, Hand, RuleSet, TeamHand, TeamPlayer
from scoring.play import services
from scoring.play.access import (
    DayClosed,
    check_room_code,
    game_for_request,
    grant_table,
    shows_closed_day,
    table_for_request,
)
from scoring.play.forms import (
    DayRulesForm,
    HandEntry,
    NewRuleSetForm,
    NextGameForm,
    RuleSetForm,
    StartGameForm,
)
from scoring.play.history import hand_history

# An empty hand form's per-team boxes are cached (see _fresh_team_entries) in the
# process's memory, which a restart (a deployment) empties.
ENTRY_CACHE_SECONDS = 6 * 3600

BREAKDOWN_LABELS = {
    "melded_cards": "Melded cards",
    "canastas": "Canastas",
    "red_threes": "Red threes",
    "going_out": "Going out",
    "perfect_cut": "Perfect cut",
    "cards_in_hand": "Cards left in hand",
    "penalties": "Penalties",
}


# ---------------------------------------------------------------------------------------
# Loading a game for display (a fixed number of queries, whatever the number of hands)


def _teams(game: Game) -> list[GameTeam]:
    """The game's teams with their players (seat order) and ``label_text`` ("Team 1",
    or "Player 1" when everyone plays alone)."""
    players = TeamPlayer.objects.select_related("person").order_by("seat", "pk")
    teams = list(
        GameTeam.objects.filter(game=game)
        .order_by("index")
        .prefetch_related(Prefetch("memberships", queryset=players))
    )
    rules = game.engine_rules()
    for team in teams:
        team.label_text = rules.team_label(team.index)
    return teams


def _hands(game: Game) -> list[Hand]:
    rows = TeamHand.objects.order_by("team__index")
    return list(
        Hand.objects.filter(game=game)
        .order_by("number")
        .select_related("dealer", "entered_by")
        .prefetch_related(Prefetch("team_hands", queryset=rows))
    )


def _people_in_seat_order(teams: list[GameTeam]):
    players = [m for team in teams for m in team.memberships.all()]
    players.sort(key=lambda m: (m.seat or 0, m.pk))
    return [m.person for m in players]


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


def _hand_rows(hands: list[Hand], labels: dict[int, str]):
    rows = []
    for h in hands:
        team_hands = list(h.team_hands.all())
        for th in team_hands:
            th.label_text = labels.get(th.team_id, "")
        rows.append({"hand": h, "teams": team_hands})
    return rows


def _labelled(rows, rules):
    """TeamHand rows with their team's label ("Team 1") as ``label_text``."""
    rows = list(rows)
    for k, row in enumerate(rows):
        row.label_text = rules.team_label(k)
    return rows


def _game_context(request, game: Game, access, *, teams=None, **extra):
    """Everything the table page shows. ``teams``: the game's teams, when the view has
    loaded them already (and nothing changed them since)."""
    teams = _teams(game) if teams is None else teams
    hands = _hands(game)
    rules = game.engine_rules()
    order = _people_in_seat_order(teams)
    order_ids = [p.pk for p in order]
    next_dealer_id = services.dealer_for(game, game.hand_count + 1, order_ids)
    next_dealer = next((p for p in order if p.pk == next_dealer_id), None)
    failed = services.failed_meld_counts(game)
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
        "hand_rows": _hand_rows(hands, labels),
        "last_hand": hands[-1] if hands else None,
        "next_dealer": next_dealer,
        "seat_order": order,
        "winner": winner,
    }
    ctx.update(extra)
    return ctx


def _entry(game: Game, teams, data=None, **kw) -> HandEntry:
    return HandEntry(game.engine_rules(), teams, data, **kw)


def _preview(game: Game, entry: HandEntry, teams):
    """Score what was typed without saving: a dict for the preview panel."""
    if not entry.is_valid():
        return {"form_errors": True}
    number = entry.number
    outcome, before = services.preview_hand(game, entry.inputs(), number=number)
    if not outcome.ok:
        entry.apply_refusals(outcome.errors)
        return {"refused": True, "errors": outcome.errors}
    rules = game.engine_rules()
    rows = []
    for k, result in enumerate(outcome.teams):
        lines = [
            (BREAKDOWN_LABELS.get(key, key), value)
            for key, value in result.breakdown.items()
            if value or key in ("melded_cards", "cards_in_hand")
        ]
        rows.append(
            {
                "label": rules.team_label(k),
                "names": teams[k].player_names if k < len(teams) else "",
                "lines": lines,
                "hand_score": result.hand_score,
                "before": before[k] if k < len(before) else 0,
                "after": result.score_after,
                "minimum_next": result.minimum_next,
            }
        )
    winner = None
    if outcome.game_over and outcome.winner is not None:
        winner = rows[outcome.winner]
    return {"rows": rows, "game_over": outcome.game_over, "winner": winner, "number": number}


def _top_errors_of(entry: HandEntry):
    """Every error of the form as (where, message), for the preview panel."""
    found = [("", m) for m in entry.top_errors]
    for form in entry.teams:
        where = form.label

        def named(message, where=where):
            # The engine's messages name the team already ("Team 1 went out ...").
            return message.startswith((where + " ", where + "'", "Teams ", "The "))

        for m in form.team_errors + form.melds_errors + form.cards_errors + form.penalty_errors:
            found.append(("" if named(m) else where, m))
        for ms in form.meld_errors.values():
            found += [("" if named(m) else where, m) for m in ms]
        for name, errors in form.errors.items():
            label = form.fields[name].label if name in form.fields else ""
            for m in errors:
                found.append(("" if named(m) else f"{where}, {label}" if label else where, m))
    return found


# ---------------------------------------------------------------------------------------
# Getting to the table


def room(request):
    """The room-code box on the front page (POST); a wrong code is told on the same box."""
    if request.method != "POST":
        return redirect("home")
    code = request.POST.get("room_code", "")
    table, problem = check_room_code(request, code)
    if table is None:
        return render(
            request,
            "home.html",
            {"room_error": problem, "room_code": str(code)[:20]},
            status=200,
        )
    grant_table(request, table)
    return redirect("scoring:table", table_pk=table.pk)


@shows_closed_day
def table_link(request, token):
    """The secret link of a table's card: this device may now score that table today."""
    table = get_object_or_404(Table.objects.select_related("round__day"), token=token)
    if not table.round.day.is_open:
        raise DayClosed(table)
    grant_table(request, table)
    return redirect("scoring:table", table_pk=table.pk)


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
    return _render_table(request, game, access)


def _fresh_team_entries(entry: HandEntry) -> str:
    """The per-team boxes of an empty hand form, rendered once per team line-up and
    rule set and then taken from the cache (they are the same for every hand of a
    game): about 120 boxes, most of a table page's rendering time."""
    shape = (
        [(form.prefix, form.label, form.names) for form in entry.teams],
        entry.rules.perfect_cut_enabled,
        entry.rules.perfect_cut_bonus,
    )
    key = "entry-boxes:" + hashlib.sha256(repr(shape).encode()).hexdigest()
    html = cache.get(key)
    if html is None:
        html = render_to_string("scoring/_team_entries.html", {"entry": entry})
        cache.set(key, html, ENTRY_CACHE_SECONDS)
    return mark_safe(html)


def _render_table(request, game, access, *, entry=None, status=200, teams=None, **extra):
    ctx = _game_context(request, game, access, teams=teams, **extra)
    if not game.is_finished and access.can_edit and entry is None:
        entry = _entry(game, ctx["teams"], number=game.hand_count + 1)
        ctx["team_entries_html"] = _fresh_team_entries(entry)
    ctx["entry"] = entry
    return render(request, "scoring/table.html", ctx, status=status)


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
    teams = _teams(game)
    action = str(request.POST.get("action", "save"))[:20]
    entry = _entry(game, teams, request.POST, number=game.hand_count + 1)

    if action.startswith(("failed-", "unfailed-")):
        kind, _, index = action.partition("-")
        team_index = whole_number(index, digits=2)
        if team_index is not None:
            try:
                services.count_failed_meld(game, team_index, step=1 if kind == "failed" else -1)
            except services.GameClosed as exc:
                messages.error(request, exc.message)
                return redirect("scoring:table", table_pk=game.table_id)
        return _render_table(request, game, access, entry=entry, teams=teams)

    if action == "preview":
        preview = _preview(game, entry, teams)
        return _render_table(request, game, access, entry=entry, preview=preview, teams=teams)

    if not entry.is_valid():
        return _render_table(request, game, access, entry=entry, teams=teams)
    number = _as_number(request, entry.number)
    try:
        hand = services.record_hand(
            game,
            entry.inputs(),
            number=number,
            user=access.user_for_history,
            via=access.via,
        )
    except services.HandRefused as exc:
        entry.apply_refusals(exc.errors)
        return _render_table(request, game, access, entry=entry, teams=teams)
    except services.HandConflict as exc:
        existing = exc.existing_hand
        conflict = {"message": exc.message, "hand": existing}
        if existing is not None:
            conflict["rows"] = _labelled(
                TeamHand.objects.filter(hand=existing).order_by("team__index"),
                game.engine_rules(),
            )
        game.refresh_from_db()
        conflict["next_number"] = game.hand_count + 1
        return _render_table(request, game, access, entry=entry, conflict=conflict)
    except services.GameClosed as exc:
        messages.error(request, exc.message)
        return redirect("scoring:table", table_pk=game.table_id)
    rows = TeamHand.objects.filter(hand=hand).order_by("team__index")
    rules = game.engine_rules()
    summary = "; ".join(
        f"{rules.team_label(k)} {row.hand_score:+,} → {row.score_after:,}"
        for k, row in enumerate(rows)
    )
    messages.success(request, f"Hand {hand.number} saved. {summary}.")
    return redirect(reverse("scoring:table", args=[game.table_id]) + "#scoreboard")


@shows_closed_day
def hand_preview(request, game_pk):
    """The live preview (htmx): the breakdown and new totals of what is typed."""
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    game, access = game_for_request(request, game_pk, edit=True)
    teams = _teams(game)
    entry = _entry(game, teams, request.POST)
    preview = _preview(game, entry, teams)
    if not request.htmx:
        # Without JavaScript the Preview button posts to the form's own page instead;
        # this keeps a direct visit useful.
        return _render_table(request, game, access, entry=entry, preview=preview, teams=teams)
    return render(
        request,
        "scoring/_preview.html",
        {"preview": preview, "entry": entry, "form_errors": _top_errors_of(entry)},
    )


@shows_closed_day
def hand_edit(request, game_pk, number):
    game, access = game_for_request(request, game_pk, edit=True)
    hand = get_object_or_404(Hand.objects.select_related("entered_by"), game=game, number=number)
    teams = _teams(game)
    ctx = {"game": game, "table": game.table, "hand": hand, "access": access, "teams": teams}
    if request.method != "POST":
        entry = _entry(game, teams, inputs=hand.inputs, number=hand.number, version=hand.version)
        return _render_edit(request, ctx, entry)
    entry = _entry(game, teams, request.POST, number=hand.number, version=hand.version)
    action = str(request.POST.get("action", "save"))
    if action == "preview":
        return _render_edit(request, ctx, entry, preview=_preview(game, entry, teams))
    if not entry.is_valid():
        return _render_edit(request, ctx, entry)
    if entry.number != hand.number:
        entry.top_errors.append("This form is for another hand; reload the page.")
        return _render_edit(request, ctx, entry)
    version = entry.version if entry.version is not None else -1
    try:
        services.correct_hand(
            hand,
            entry.inputs(),
            expected_version=version,
            user=access.user_for_history,
            via=access.via,
        )
    except services.HandRefused as exc:
        entry.apply_refusals(exc.errors)
        return _render_edit(request, ctx, entry)
    except services.StaleEdit as exc:
        current = exc.current_hand
        if current is None:
            messages.error(request, exc.message)
            return redirect("scoring:game", game_pk=game.pk)
        data = request.POST.copy()
        data["version"] = str(current.version)
        entry = _entry(game, teams, data, number=hand.number, version=current.version)
        # The page shows the hand as saved now ("As saved now"), beside what was typed.
        stale = {"message": exc.message, "hand": current}
        return _render_edit(request, ctx, entry, stale=stale)
    messages.success(request, f"Hand {hand.number} corrected; the totals after it were recomputed.")
    return redirect(reverse("scoring:game", args=[game.pk]) + f"#hand-{hand.number}")


def _render_edit(request, ctx, entry, **extra):
    ctx = {**ctx, "entry": entry, **extra}
    rows = TeamHand.objects.filter(hand=ctx["hand"]).order_by("team__index")
    ctx["saved_rows"] = _labelled(rows, ctx["game"].engine_rules())
    return render(request, "scoring/hand_edit.html", ctx)


@shows_closed_day
def hand_undo(request, game_pk):
    game, access = game_for_request(request, game_pk, edit=True)
    last = (
        Hand.objects.filter(game=game)
        .order_by("-number")
        .prefetch_related(Prefetch("team_hands", queryset=TeamHand.objects.order_by("team__index")))
        .first()
    )
    if request.method != "POST":
        if last is None:
            messages.info(request, "There is no hand to undo.")
            return redirect("scoring:table", table_pk=game.table_id)
        rows = _labelled(last.team_hands.all(), game.engine_rules())
        return render(
            request,
            "scoring/hand_undo.html",
            {"game": game, "table": game.table, "hand": last, "rows": rows},
        )
    expected = whole_number(request.POST.get("hand_count"), digits=5, default=-1)
    try:
        undone = services.undo_last_hand(
            game, expected_hand_count=expected, user=access.user_for_history, via=access.via
        )
    except services.StaleEdit as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            f"Hand {undone.number} was undone; the history keeps it. Enter it again if needed.",
        )
    return redirect("scoring:table", table_pk=game.table_id)


@shows_closed_day
def game(request, game_pk):
    game, access = game_for_request(request, game_pk)
    ctx = _game_context(request, game, access)
    if access.is_officer:
        labels = [f"{t.label_text} ({t.player_names})" for t in ctx["teams"]]
        ctx["history"] = hand_history(game, labels)
    later = Game.objects.filter(table=game.table, number__gt=game.number).order_by("number")
    ctx["later_game"] = later.first()
    return render(request, "scoring/game.html", ctx)


# ---------------------------------------------------------------------------------------
# Starting games


def _day_rule_set(day):
    return services.rule_set_for_day(day)


def _initial_teams(people, rules):
    """Partners sit opposite: seat order 1,2,3,4 gives teams [1,3] and [2,4]."""
    if len(people) != rules.players:
        return None
    return [
        [people[i + j * rules.teams] for j in range(rules.players_per_team)]
        for i in range(rules.teams)
    ]


@shows_closed_day
def game_start(request, table_pk):
    access = table_for_request(request, table_pk, edit=True)
    table = access.table
    playing = Game.objects.filter(table=table, status=Game.Status.PLAYING).first()
    if playing is not None:
        messages.info(request, f"Game {playing.number} is being played at this table.")
        return redirect("scoring:table", table_pk=table.pk)
    seats = list(Seat.objects.filter(table=table).select_related("person").order_by("position"))
    people = [s.person for s in seats]
    if access.is_officer:
        seated = {p.pk for p in people}
        signed_in = SignIn.objects.filter(day=access.day).select_related("person")
        people += sorted(
            (s.person for s in signed_in if s.person_id not in seated),
            key=lambda p: (p.last_name, p.first_name),
        )
    rule_set = _day_rule_set(access.day)
    chosen = rule_set
    if access.is_officer:
        # Officers may play another rule set at this table (e.g. two players only).
        raw = (request.POST if request.method == "POST" else request.GET).get("rule_set")
        pk = whole_number(raw)
        if pk is not None:
            chosen = RuleSet.objects.filter(pk=pk).first() or rule_set
    if chosen is None:
        return render(
            request,
            "scoring/game_start.html",
            {"table": table, "day": access.day, "no_rules": True, "access": access},
        )
    rules = chosen.as_engine()
    form = StartGameForm(
        request.POST or None,
        people=people,
        rules=rules,
        initial_teams=_initial_teams([s.person for s in seats], rules),
    )
    if request.method == "POST" and form.is_valid():
        try:
            new = services.start_game(
                table,
                form.cleaned_data["teams"],
                rule_set=chosen,
                score_keeper=form.cleaned_data["score_keeper_person"],
                first_dealer=form.cleaned_data["first_dealer_person"],
                check_seating=not access.is_officer,
            )
        except services.GameSetupError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, f"Game {new.number} started. Good luck!")
            return redirect("scoring:table", table_pk=table.pk)
    return render(
        request,
        "scoring/game_start.html",
        {
            "table": table,
            "day": access.day,
            "form": form,
            "rule_set": chosen,
            "rules": rules,
            "seats": seats,
            "access": access,
            "rule_sets": RuleSet.objects.all() if access.is_officer else None,
        },
    )


@shows_closed_day
def next_game(request, game_pk):
    game, access = game_for_request(request, game_pk, edit=True)
    if not game.is_finished:
        messages.info(request, f"Game {game.number} is still being played.")
        return redirect("scoring:table", table_pk=game.table_id)
    later = Game.objects.filter(table=game.table, number__gt=game.number).first()
    if later is not None:
        messages.info(request, f"Game {later.number} has already started at this table.")
        return redirect("scoring:table", table_pk=game.table_id)
    teams = _teams(game)
    order = _people_in_seat_order(teams)
    rules = game.engine_rules()
    keeper = game.score_keeper if game.score_keeper in order else None
    draw_form = None
    left = right = None
    if keeper is not None and len(order) == 4 and rules.teams == 2:
        left, right = services.keeper_neighbours(order, keeper)
    method = request.POST.get("method") if request.method == "POST" else None
    if left is not None:
        draw_form = NextGameForm(request.POST if method == "draw" else None, left=left, right=right)
    choose_form = StartGameForm(
        request.POST if method == "choose" else None,
        people=order,
        rules=rules,
        initial_teams=None,
        initial={"score_keeper": str(keeper.pk) if keeper else ""},
    )
    new_teams = None
    score_keeper = keeper
    first_dealer = None
    if method == "draw" and draw_form is not None and draw_form.is_valid():
        high = left if str(left.pk) == draw_form.cleaned_data["high_card"] else right
        new_teams = services.club_partnerships(order, keeper, high)
        first_dealer = None
    elif method == "choose" and choose_form.is_valid():
        new_teams = choose_form.cleaned_data["teams"]
        score_keeper = choose_form.cleaned_data["score_keeper_person"]
        first_dealer = choose_form.cleaned_data["first_dealer_person"]
    if new_teams is not None:
        try:
            new = services.next_game(
                game,
                new_teams,
                score_keeper=score_keeper,
                first_dealer=first_dealer,
                check_seating=not access.is_officer,
            )
        except services.GameSetupError as exc:
            messages.error(request, exc.message)
        else:
            names = " · ".join(" & ".join(p.full_name for p in team) for team in new_teams)
            messages.success(request, f"Game {new.number} started: {names}.")
            return redirect("scoring:table", table_pk=game.table_id)
    return render(
        request,
        "scoring/next_game.html",
        {
            "game": game,
            "table": game.table,
            "teams": teams,
            "keeper": keeper,
            "left": left,
            "right": right,
            "draw_form": draw_form,
            "choose_form": choose_form,
            "access": access,
        },
    )


# ---------------------------------------------------------------------------------------
# Officers: table cards, rule sets, the rules of a day


@officer_required
def table_cards(request, day_pk):
    day = get_object_or_404(ClubDay, pk=day_pk)
    tables = (
        Table.objects.filter(round__day=day)
        .select_related("round")
        .order_by("round__number", "number")
    )
    cards = []
    for t in tables:
        url = request.build_absolute_uri(reverse("scoring:table_link", args=[t.token]))
        svg = segno.make(url, error="m").svg_inline(scale=4, dark="#000", light="#fff")
        cards.append({"table": t, "url": url, "qr": mark_safe(svg)})  # segno's own SVG markup
    return render(request, "scoring/table_cards.html", {"day": day, "cards": cards})


@officer_required
def rulesets(request):
    rule_sets = list(RuleSet.objects.all())
    return render(request, "scoring/rulesets.html", {"rule_sets": rule_sets})


def _unique_slug(name: str) -> str:
    base = slugify(name)[:70] or "rules"
    slug, n = base, 2
    while RuleSet.objects.filter(slug=slug).exists():
        slug = f"{base}-{n}"
        n += 1
    return slug


@officer_required
def ruleset_new(request):
    initial = {}
    source_pk = whole_number(request.GET.get("from"))
    if source_pk is not None:
        source = RuleSet.objects.filter(pk=source_pk).first()
        if source is not None:
            initial = {"source": source.pk, "name": f"{source.name} (copy)"[:80]}
    else:
        default = RuleSet.objects.club_default()
        if default is not None:
            initial = {"source": default.pk}
    form = NewRuleSetForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        source = form.cleaned_data["source"]
        name = form.cleaned_data["name"]
        slug = _unique_slug(name)
        settings_dict = dict(source.settings)
        settings_dict["name"] = slug[:100]
        settings_dict["label"] = name[:100]
        rules, refusals = engine.rules_from_spec(settings_dict)
        if rules is None:
            form.add_error(None, " ".join(r.message for r in refusals))
        else:
            new = RuleSet.objects.create(
                name=name,
                slug=slug,
                based_on=source.based_on or source.slug,
                is_preset=False,
                description=source.description,
                settings=rules.to_dict(),
            )
            messages.success(request, f"'{new.name}' created; change any setting below.")
            return redirect("scoring:ruleset_edit", pk=new.pk)
    return render(request, "scoring/ruleset_new.html", {"form": form})


@officer_required
def ruleset_edit(request, pk):
    rule_set = get_object_or_404(RuleSet, pk=pk)
    if rule_set.is_preset:
        form = RuleSetForm(instance=rule_set)
        for field in form.fields.values():
            field.disabled = True
        if request.method == "POST":
            messages.error(request, "Presets cannot be changed; copy this one to change it.")
        return render(
            request,
            "scoring/ruleset_edit.html",
            {"rule_set": rule_set, "form": form, "read_only": True},
        )
    form = RuleSetForm(request.POST or None, instance=rule_set)
    if request.method == "POST" and form.is_valid() and form.engine_rules is not None:
        rule_set.name = form.cleaned_data["name"]
        rule_set.description = form.cleaned_data.get("description", "")
        rule_set.settings = form.engine_rules.to_dict()
        rule_set.save()
        messages.success(
            request,
            f"'{rule_set.name}' saved. Games already started keep the rules they started with.",
        )
        return redirect("scoring:ruleset_edit", pk=rule_set.pk)
    return render(
        request,
        "scoring/ruleset_edit.html",
        {"rule_set": rule_set, "form": form, "read_only": False},
    )


@officer_required
@require_POST
def ruleset_default(request, pk):
    rule_set = get_object_or_404(RuleSet, pk=pk)
    services.set_club_default(rule_set)
    messages.success(request, f"'{rule_set.name}' is now the club default.")
    return redirect("scoring:rulesets")


@officer_required
def day_rules(request, day_pk):
    day = get_object_or_404(ClubDay, pk=day_pk)
    current = DayRules.objects.filter(day=day).select_related("rule_set").first()
    default = RuleSet.objects.club_default()
    initial = {"rule_set": current.rule_set_id if current else (default.pk if default else None)}
    form = DayRulesForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        services.set_day_rules(day, form.cleaned_data["rule_set"])
        messages.success(
            request,
            f"{day} plays '{form.cleaned_data['rule_set'].name}'. Games already started keep "
            f"their rules.",
        )
        target = request.POST.get("next", "")
        if target and url_has_allowed_host_and_scheme(
            target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        ):
            return redirect(target)
        return redirect("scoring:day_rules", day_pk=day.pk)
    games = Game.objects.filter(day=day).count()
    return render(
        request,
        "scoring/day_rules.html",
        {"day": day, "form": form, "current": current, "default": default, "games": games},
    )

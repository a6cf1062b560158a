"""Games: a game's page (its hands and, for officers, their history), starting a game
at a table, and starting the next one with new partners.

Partners are set by the players' choice or by the club's draw
(:func:`scoring.play.partnerships.club_partnerships`); the services start the game.
"""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from clubsite.params import whole_number
from members.models import Seat, SignIn
from scoring.labels import BREAKDOWN_WORDS
from scoring.models import Game, RuleSet
from scoring.models.rulesets import rules_summary
from scoring.play.access import game_for_request, shows_closed_day, table_for_request
from scoring.play.forms.games import NextGameForm, StartGameForm
from scoring.play.history import hand_history
from scoring.play.partnerships import club_partnerships, keeper_neighbours
from scoring.play.services.confirmations import game_would_confirm
from scoring.play.services.errors import GameInPlay, GameSetupError
from scoring.play.services.games import (
    check_next_game,
    dealer_moves_on,
    rules_for_table,
    start_game,
)
from scoring.play.services.games import next_game as start_next_game
from scoring.play.services.rulesets import rule_set_for_day
from scoring.play.views.display import game_context, load_teams, people_in_seat_order


@shows_closed_day
def game(request, game_pk):
    game, access = game_for_request(request, game_pk)
    ctx = game_context(request, game, access, entered_by=True)
    for row in ctx["hand_rows"]:
        for team_hand in row["teams"]:
            team_hand.breakdown_lines = _breakdown_lines(team_hand.breakdown)
    if access.is_officer:
        labels = [f"{t.label_text} ({t.player_names})" for t in ctx["teams"]]
        ctx["history"] = hand_history(game, labels)
    later = Game.objects.filter(table=game.table, number__gt=game.number).order_by("number")
    ctx["later_game"] = later.first()
    return render(request, "scoring/game.html", ctx)


#: Parts of a hand's score the game page lists only when they are not zero.
_LISTED_WHEN_SCORED = ("perfect_cut", "penalties")


def _breakdown_lines(breakdown: dict) -> list[tuple[str, object]]:
    """(words, points) for each part of a team's hand score, as the game page lists them."""
    return [
        (words, breakdown.get(key, ""))
        for key, words in BREAKDOWN_WORDS.items()
        if key not in _LISTED_WHEN_SCORED or breakdown.get(key)
    ]


def _initial_teams(people, rules):
    """Partners sit opposite: seat order 1,2,3,4 gives teams [1,3] and [2,4]."""
    if len(people) != rules.players:
        return None
    return [
        [people[i + j * rules.teams] for j in range(rules.players_per_team)]
        for i in range(rules.teams)
    ]


def _players_to_choose(access, seats) -> list:
    """The people seated at the table; officers may also choose anyone signed in."""
    people = [s.person for s in seats]
    if access.is_officer:
        seated = {p.pk for p in people}
        signed_in = SignIn.objects.filter(day=access.day).select_related("person")
        people += sorted(
            (s.person for s in signed_in if s.person_id not in seated),
            key=lambda p: (p.last_name, p.first_name),
        )
    return people


def _chosen_rule_set(request, access):
    """The rule set the day plays; officers may play another at this table (e.g. two
    players only)."""
    rule_set = rule_set_for_day(access.day)
    chosen = rule_set
    if access.is_officer:
        raw = (request.POST if request.method == "POST" else request.GET).get("rule_set")
        pk = whole_number(raw)
        if pk is not None:
            chosen = RuleSet.objects.filter(pk=pk).first() or rule_set
    return chosen


IN_PLAY = gettext_noop("Game %(number)s is being played at this table.")
STARTED = gettext_noop("Game %(number)s has already started at this table.")


def _back_to_table(request, table_pk, message: str):
    """Back to the table page, which says ``message`` (a game already under way)."""
    messages.info(request, message)
    return redirect("scoring:table", table_pk=table_pk)


def _game_words(sentence: str, number: int) -> str:
    return _(sentence) % {"number": number}


@shows_closed_day
def game_start(request, table_pk):
    access = table_for_request(request, table_pk, edit=True)
    table = access.table
    playing = Game.objects.filter(table=table, status=Game.Status.PLAYING).first()
    if playing is not None:
        return _back_to_table(request, table.pk, _game_words(IN_PLAY, playing.number))
    seats = list(Seat.objects.filter(table=table).select_related("person").order_by("position"))
    people = _players_to_choose(access, seats)
    chosen = _chosen_rule_set(request, access)
    if chosen is None:
        return render(
            request,
            "scoring/game_start.html",
            {"table": table, "day": access.day, "no_rules": True, "access": access},
        )
    try:
        rules, rules_name = rules_for_table(chosen.settings, chosen.name, len(seats))
    except GameSetupError as exc:
        messages.error(request, exc.message)
        return redirect("scoring:table", table_pk=table.pk)
    form = StartGameForm(
        request.POST or None,
        people=people,
        rules=rules,
        initial_teams=_initial_teams([s.person for s in seats], rules),
        keeper_required=game_would_confirm(access.day, chosen),
    )
    if request.method == "POST" and form.is_valid():
        try:
            new = start_game(
                table,
                form.cleaned_data["teams"],
                rule_set=chosen,
                score_keeper=form.cleaned_data["score_keeper_person"],
                first_dealer=form.cleaned_data["first_dealer_person"],
                check_seating=not access.is_officer,
            )
        except GameInPlay as exc:
            # A double tap, or another phone: the game this form asked for is under way.
            return _back_to_table(request, table.pk, _game_words(IN_PLAY, exc.number))
        except GameSetupError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(
                request, _("Game %(number)s started. Good luck!") % {"number": new.number}
            )
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
            "rules_name": rules_name,
            "rules_summary": rules_summary(rules),
            "seats": seats,
            "access": access,
            "rule_sets": RuleSet.objects.all() if access.is_officer else None,
        },
    )


@shows_closed_day
def next_game(request, game_pk):
    game, access = game_for_request(request, game_pk, edit=True)
    if not game.is_finished:
        return _back_to_table(
            request,
            game.table_id,
            _("Game %(number)s is still being played.") % {"number": game.number},
        )
    later = Game.objects.filter(table=game.table, number__gt=game.number).first()
    if later is not None:
        return _back_to_table(request, game.table_id, _game_words(STARTED, later.number))
    try:
        check_next_game(game)  # a table of an event's round: the director seats the next
    except GameSetupError as exc:
        return _back_to_table(request, game.table_id, exc.message)
    teams = load_teams(game)
    order = people_in_seat_order(teams)
    rules = game.engine_rules()
    keeper = game.score_keeper if game.score_keeper in order else None
    draw_form = None
    left = right = None
    if keeper is not None and len(order) == 4 and rules.teams == 2:
        left, right = keeper_neighbours(order, keeper)
    method = request.POST.get("method") if request.method == "POST" else None
    if left is not None:
        draw_form = NextGameForm(request.POST if method == "draw" else None, left=left, right=right)
    dealer = dealer_moves_on(game, order) if rules.players_per_team == 1 else None
    choose_form = _choose_form(
        request.POST if method == "choose" else None,
        order,
        rules,
        keeper=keeper,
        dealer=dealer,
        keeper_required=game_would_confirm(game.day, game.rule_set),
    )
    new_teams, score_keeper, first_dealer = _new_partners(
        method, draw_form, choose_form, order=order, keeper=keeper, left=left, right=right
    )
    if new_teams is not None:
        try:
            new = start_next_game(
                game,
                new_teams,
                score_keeper=score_keeper,
                first_dealer=first_dealer,
                check_seating=not access.is_officer,
            )
        except GameInPlay as exc:
            # A double tap, or another phone: the next game started a moment ago.
            return _back_to_table(request, game.table_id, _game_words(STARTED, exc.number))
        except GameSetupError as exc:
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
            "singles": rules.players_per_team == 1,
            "next_dealer": dealer,
            "access": access,
        },
    )


def _choose_form(data, order, rules, *, keeper, dealer, keeper_required) -> StartGameForm:
    """The next game's players chosen by hand: when everyone plays alone, the same
    players in their seats, the deal moving on (``dealer``)."""
    singles = rules.players_per_team == 1
    return StartGameForm(
        data,
        people=order,
        rules=rules,
        initial_teams=[[p] for p in order] if singles else None,
        keeper_required=keeper_required,
        initial={
            "score_keeper": str(keeper.pk) if keeper else "",
            "first_dealer": str(dealer.pk) if dealer else "",
        },
    )


def _new_partners(method, draw_form, choose_form, *, order, keeper, left, right):
    """(teams, score keeper, first dealer) of the next game from the form that was sent:
    the club's draw or the players' choice; teams None while neither is complete."""
    if method == "draw" and draw_form is not None and draw_form.is_valid():
        high = left if str(left.pk) == draw_form.cleaned_data["high_card"] else right
        return club_partnerships(order, keeper, high), keeper, None
    if method == "choose" and choose_form.is_valid():
        data = choose_form.cleaned_data
        return data["teams"], data["score_keeper_person"], data["first_dealer_person"]
    return None, keeper, None

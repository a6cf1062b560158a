"""Starting games: the first game at a table and the next one, with the checks on the
teams (how many, how big, nobody twice, everybody seated at that table).

A game starts under a frozen copy of its rule set (``Game.rules``); its teams, their
players in game-seat order and their opening meld minimum are written with it.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from members.models import Seat, Table
from scoring import engine
from scoring.labels import rules_words
from scoring.models import Game, GameTeam, RuleSet, TeamPlayer
from scoring.play.partnerships import seat_order
from scoring.play.services.errors import GameInPlay, GameSetupError
from scoring.play.services.rulesets import rule_set_for_day
from scoring.signals import starting_next_game


def rules_for_table(settings_dict: dict, name: str, players: int) -> tuple[engine.RuleSet, str]:
    """The rules (and the name officers see) a game of ``players`` plays under a rule
    set's settings: the rule set itself when it is for that many players, else its
    variant for a smaller table (a four-player day's rules at a table of three play
    "Club house rules (three players)", see :func:`engine.table_variant`). Rules with
    no such variant are returned unchanged; the team check then says what is wrong."""
    try:
        rules = engine.RuleSet.from_dict(settings_dict)
    except ValueError as exc:
        raise GameSetupError(
            _("The rule set cannot be used: %(reason)s") % {"reason": exc}
        ) from exc
    if not players or players == rules.players:
        return rules, name
    try:
        variant = engine.table_variant(rules, players)
    except ValueError:
        return rules, name
    return variant, f"{name}{variant.label.removeprefix(rules.label)}"


def table_rules_name(rule_set: RuleSet | None, players: int) -> str | None:
    """The name of the rules a table of ``players`` plays under a day's rule set
    ("Club house rules (three players)"), or None when there are none for that many
    (no rule set, or a table of one, five or six under four-player rules)."""
    if rule_set is None or players < 1:
        return None
    try:
        rules, name = rules_for_table(rule_set.settings, rule_set.name, players)
    except GameSetupError:
        return None
    return name if rules.players == players else None


def _players_given(teams: Sequence[Sequence]) -> int:
    """How many players the teams hold, when everyone plays alone (a table of three or
    two); 0 otherwise, so that a partnership game is checked against its own rules."""
    if teams and all(len(team) == 1 for team in teams):
        return len(teams)
    return 0


def _check_teams(rules: engine.RuleSet, teams: Sequence[Sequence]) -> None:
    words = {"rules": rules_words(rules.label), "need": rules.teams, "given": len(teams)}
    if len(teams) != rules.teams:
        raise GameSetupError(
            (
                _("These rules (%(rules)s) need %(need)s players, but %(given)s were given.")
                if rules.alone
                else _("These rules (%(rules)s) need %(need)s teams, but %(given)s were given.")
            )
            % words
        )
    seen = set()
    for i, team in enumerate(teams):
        if len(team) != rules.players_per_team:
            need = rules.players_per_team
            raise GameSetupError(
                ngettext(
                    "%(side)s needs %(need)s player under these rules (%(rules)s), but has "
                    "%(has)s.",
                    "%(side)s needs %(need)s players under these rules (%(rules)s), but has "
                    "%(has)s.",
                    need,
                )
                % {**words, "side": rules.team_label(i), "need": need, "has": len(team)}
            )
        for person in team:
            if person is None:
                raise GameSetupError(
                    _("Choose every player of %(side)s.") % {"side": rules.team_label(i)}
                )
            if person.pk in seen:
                raise GameSetupError(
                    _("%(name)s cannot play in two places at once.") % {"name": person.full_name}
                )
            seen.add(person.pk)


def _check_players(table: Table, teams, *, check_seating, score_keeper, first_dealer) -> dict:
    """Refuse players not seated at the table (when checked) and a score keeper or first
    dealer who does not play; returns the table's seats {person id: position}."""
    players = [person for team in teams for person in team]
    ids = {p.pk for p in players}
    table_seats = {
        s.person_id: s.position for s in Seat.objects.filter(table=table, round_id=table.round_id)
    }
    if check_seating:
        missing = [p.full_name for p in players if p.pk not in table_seats]
        if missing:
            raise GameSetupError(
                ngettext(
                    "%(names)s is not seated at %(table)s in this round.",
                    "%(names)s are not seated at %(table)s in this round.",
                    len(missing),
                )
                % {"names": ", ".join(missing), "table": table}
            )
    if score_keeper is not None and score_keeper.pk not in ids:
        raise GameSetupError(_("The score keeper must be one of the players of the game."))
    if first_dealer is not None and first_dealer.pk not in ids:
        raise GameSetupError(_("The first dealer must be one of the players of the game."))
    return table_seats


def _start(
    table: Table,
    teams: Sequence[Sequence],
    *,
    settings_dict: dict,
    rules_name: str,
    rule_set: RuleSet | None,
    score_keeper=None,
    first_dealer=None,
    number: int | None = None,
    check_seating: bool = True,
    now=None,
) -> Game:
    rules, rules_name = rules_for_table(settings_dict, rules_name, _players_given(teams))
    _check_teams(rules, teams)
    table_seats = _check_players(
        table,
        teams,
        check_seating=check_seating,
        score_keeper=score_keeper,
        first_dealer=first_dealer,
    )
    day = table.round.day
    now = now or timezone.now()
    try:
        return _create_game(
            table,
            teams,
            day=day,
            rules=rules,
            rules_name=rules_name,
            rule_set=rule_set,
            table_seats=table_seats,
            score_keeper=score_keeper,
            first_dealer=first_dealer,
            number=number,
            now=now,
        )
    except IntegrityError as exc:
        # Another device started a game at this table at the same moment.
        raise GameSetupError(
            _("A game was just started at %(table)s on another device; reload the table page.")
            % {"table": table}
        ) from exc


def _create_game(
    table,
    teams,
    *,
    day,
    rules,
    rules_name,
    rule_set,
    table_seats,
    score_keeper,
    first_dealer,
    number,
    now,
) -> Game:
    with transaction.atomic():
        # Lock the table's games so two devices cannot start two games at once.
        existing = list(Game.objects.select_for_update().filter(table=table).order_by("number"))
        playing = [g for g in existing if g.status == Game.Status.PLAYING]
        if playing:
            raise GameInPlay(
                playing[0].number,
                _("Game %(number)s at %(table)s is still being played; finish it first.")
                % {"number": playing[0].number, "table": table},
            )
        if number is None:
            number = (existing[-1].number + 1) if existing else 1
        elif any(g.number == number for g in existing):
            raise GameSetupError(
                _("%(table)s already has a game %(number)s.") % {"table": table, "number": number}
            )
        # Game seats: partners alternate round the table (1 & 3, 2 & 4 for four players).
        # Within a team, players keep the order of their seats at the table.
        ordered = [sorted(team, key=lambda p: table_seats.get(p.pk, 99)) for team in teams]
        if first_dealer is None:
            first_dealer = ordered[0][0]
        game = Game.objects.create(
            table=table,
            day=day,
            day_date=day.date,
            number=number,
            rule_set=rule_set,
            rules=rules.to_dict(),
            rules_name=rules_name[:80],
            status=Game.Status.PLAYING,
            score_keeper=score_keeper,
            first_dealer=first_dealer,
            started_at=now,
        )
        minimum = engine.initial_meld_minimum(rules, 0)
        game_teams = GameTeam.objects.bulk_create(
            [GameTeam(game=game, index=i, minimum=minimum) for i in range(len(teams))]
        )
        n_teams = len(teams)
        TeamPlayer.objects.bulk_create(
            [
                TeamPlayer(team=game_teams[i], person=person, game=game, seat=i + j * n_teams + 1)
                for i, team in enumerate(ordered)
                for j, person in enumerate(team)
            ]
        )
    return game


def dealer_moves_on(previous_game: Game, people: Sequence):
    """The one of ``people`` who would deal the previous game's next hand (None if
    that player does not play again): the next game's first dealer when everyone plays
    alone, so the deal goes on round the table from game to game."""
    order = seat_order(TeamPlayer.objects.filter(game=previous_game))
    dealer_id = previous_game.dealer_for(previous_game.hand_count + 1, order)
    return next((p for p in people if p.pk == dealer_id), None)


def check_next_game(previous_game: Game) -> None:
    """Other apps' refusals of a next game at the table of ``previous_game`` (a table of
    an event's round plays one game a round): :data:`scoring.signals.starting_next_game`,
    whose receivers raise :class:`GameSetupError`."""
    starting_next_game.send(sender=Game, previous=previous_game)


def start_game(
    table: Table,
    teams: Sequence[Sequence],
    *,
    rule_set: RuleSet | None = None,
    score_keeper=None,
    first_dealer=None,
    number: int | None = None,
    check_seating: bool = True,
    now=None,
) -> Game:
    """Start a game at a table under a frozen copy of a rule set.

    ``teams`` is a list of teams, each a list of `Person` (in the order of the rule
    set's teams). ``rule_set`` defaults to the one the club day plays (`DayRules`), else
    the club default. Players must be seated at that table in that round, unless
    ``check_seating=False`` (for officers and generated leagues). Raises
    :class:`GameSetupError`.
    """
    if rule_set is None:
        rule_set = rule_set_for_day(table.round.day)
    if rule_set is None:
        raise GameSetupError(
            _(
                "No rule set is chosen for this club day and the club has no default; an "
                "officer can choose one on the rule sets page."
            )
        )
    return _start(
        table,
        teams,
        settings_dict=rule_set.settings,
        rules_name=rule_set.name,
        rule_set=rule_set,
        score_keeper=score_keeper,
        first_dealer=first_dealer,
        number=number,
        check_seating=check_seating,
        now=now,
    )


def next_game(
    previous_game: Game,
    teams: Sequence[Sequence],
    *,
    score_keeper=None,
    first_dealer=None,
    check_seating: bool = True,
    now=None,
) -> Game:
    """Start the next game at the same table with new partnerships (see
    :func:`scoring.play.partnerships.club_partnerships`). It is played under the
    previous game's rule set as that rule set stands now (or the previous game's frozen
    copy if the rule set is gone). When everyone plays alone (a table of three or two)
    there are no partners to change: the first dealer defaults to the player whose turn
    to deal comes next, so the deal moves on round the table from game to game."""
    if previous_game.status != Game.Status.FINISHED:
        raise GameSetupError(
            _("Game %(number)s is still being played; finish it before the next.")
            % {"number": previous_game.number}
        )
    check_next_game(previous_game)
    rule_set = previous_game.rule_set
    if rule_set is not None:
        settings_dict, name = rule_set.settings, rule_set.name
    else:
        settings_dict, name = previous_game.rules, previous_game.rules_name
    if first_dealer is None and _players_given(teams):
        first_dealer = dealer_moves_on(previous_game, [p for team in teams for p in team])
    if score_keeper is None:
        score_keeper = previous_game.score_keeper
        if score_keeper is not None and score_keeper.pk not in {
            p.pk for team in teams for p in team
        }:
            score_keeper = None
    return _start(
        previous_game.table,
        teams,
        settings_dict=settings_dict,
        rules_name=name,
        rule_set=rule_set,
        score_keeper=score_keeper,
        first_dealer=first_dealer,
        number=None,
        check_seating=check_seating,
        now=now,
    )

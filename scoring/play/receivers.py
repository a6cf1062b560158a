"""What the play app answers when members makes a club (its game settings and results
version, :data:`members.signals.club_created`) or asks about a club day: the games still in
play, which closing the day would stop, with the officer's choice for each
(:data:`members.signals.day_closing`), and acting on those choices as the day closes
(:data:`members.signals.day_closed`)."""

from __future__ import annotations

from django.dispatch import receiver
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.translation import gettext, gettext_noop, ngettext, pgettext

from members.signals import club_created, day_closed, day_closing
from scoring.models import ClubSettings, Game, ResultsVersion, RuleSet
from scoring.play.services.endings import end_game_as_it_stands, leader_of
from scoring.play.services.errors import GameClosed

END, LEAVE = "end", "leave"

#: The shipped preset a new club plays unless its officers choose another.
DEFAULT_PRESET = "club"

LEAVE_WORDS = gettext_noop(
    "It counts nowhere: not in the standings, the top six, the day sheet, the e-mail or "
    "the ratings. Its hands are kept; reopen the day if the table is to finish it."
)


def team_names(team) -> str:
    """ "Ann Able & Cat Cole" from a team with its players prefetched."""
    return " & ".join(m.person.full_name for m in team.memberships.all())


def _alone(team) -> int:
    """1 for a player alone, 2 for a partnership (for ngettext: "wins" / "win")."""
    return 1 if len(team.memberships.all()) == 1 else 2


def _field(game: Game) -> str:
    return f"game-{game.pk}"


def _lock_games_in_play(day) -> None:
    """Lock the day's games in play (as ``Game.objects.locked`` locks one) in id order,
    until the transaction ends."""
    rows = Game.objects.select_for_update(no_key=True).filter(day=day, status=Game.Status.PLAYING)
    list(rows.order_by("pk").values_list("pk", flat=True))


def _games_in_play(day):
    return (
        Game.objects.filter(day=day, status=Game.Status.PLAYING)
        .select_related("table__round")
        .prefetch_related("teams__memberships__person")
        .order_by("table__round__number", "table__number", "number")
    )


def _standing(game: Game, teams) -> str:
    """ "Ann Able & Cat Cole lead 1,250 to 980", or "level at 450" (no hands: "")."""
    if game.hand_count == 0:
        return ""
    to = " " + pgettext("a score to another", "to") + " "
    totals = to.join(_number(t.total) for t in sorted(teams, key=lambda t: -t.total))
    leader = leader_of(game, teams)
    if leader is None:
        if len({t.total for t in teams}) == 1:
            return gettext("level at %(score)s") % {"score": _number(teams[0].total)}
        return totals
    return ngettext("%(names)s leads %(totals)s", "%(names)s lead %(totals)s", _alone(leader)) % {
        "names": team_names(leader),
        "totals": totals,
    }


def _number(n: int) -> str:
    return number_format(n, force_grouping=True)


def _choices(game: Game, teams) -> list[tuple[str, str, str]]:
    leader = leader_of(game, teams)
    if leader is None:
        return [(LEAVE, gettext("Leave it unfinished (no side is ahead)"), gettext(LEAVE_WORDS))]
    return [
        (
            END,
            ngettext(
                "End it as it stands: %(names)s wins",
                "End it as it stands: %(names)s win",
                _alone(leader),
            )
            % {"names": team_names(leader)},
            gettext(
                "It counts as a finished game: in the standings, the top six, the day "
                "sheet, the e-mail and the workbook, and the players' ratings change as "
                "for any game."
            ),
        ),
        (LEAVE, gettext("Leave it unfinished"), gettext(LEAVE_WORDS)),
    ]


@receiver(day_closing)
def games_in_play(sender, day, **kwargs):
    """One item per game of ``day`` still in play: "Table 3, round 1: game 2, 4 hands
    played, Ann Able & Cat Cole lead 1,250 to 980", with the officer's choice."""
    items = []
    for game in _games_in_play(day):
        teams = sorted(game.teams.all(), key=lambda t: t.index)
        hands = ngettext("%(n)s hand played", "%(n)s hands played", game.hand_count) % {
            "n": game.hand_count
        }
        standing = _standing(game, teams)
        text = gettext("%(table)s, round %(round)s: game %(game)s, %(hands)s") % {
            "table": game.table,
            "round": game.table.round.number,
            "game": game.number,
            "hands": hands,
        }
        items.append(
            {
                "text": f"{text}, {standing}" if standing else text,
                "url": reverse("scoring:table", args=[game.table_id]),
                "name": _field(game),
                "version": game.version,
                "choices": _choices(game, teams),
            }
        )
    return items


@receiver(day_closed)
def end_games_at_close(sender, day, choices, **kwargs):
    """End the games the officer chose to end as they stand (through the play
    services, so totals and ratings are written as for any finished game); the others
    stay unfinished. Returns what was done, in sentences.

    Called with the day's row locked; the day's games in play are locked next, all of
    them in id order, before any is ended: ending one writes rows every finishing game
    writes (the results version, players' totals), so a close that held them while it
    waited for another game's row, held by a hand ending that game, deadlocked."""
    _lock_games_in_play(day)
    notes = []
    for game in _games_in_play(day):
        if choices.get(_field(game)) != END:
            notes.append(
                gettext("Game %(number)s at %(table)s was left unfinished.")
                % {"number": game.number, "table": game.table}
            )
            continue
        seen = choices.get(f"{_field(game)}-version")
        if seen is not None and seen != str(game.version):
            # A hand was saved, corrected or undone after the closing page was drawn:
            # the side the officer saw ahead may not be ahead any more.
            notes.append(
                gettext(
                    "Game %(number)s at %(table)s changed after this page was drawn, so it "
                    "was left unfinished; reopen the day to end it as it now stands."
                )
                % {"number": game.number, "table": game.table}
            )
            continue
        try:
            ended = end_game_as_it_stands(game)
        except GameClosed as refusal:
            notes.append(refusal.message)
            continue
        winner = next(t for t in game.teams.all() if t.pk == ended.winner_id)
        notes.append(
            # The same English for one winner and two; Spanish and Portuguese say
            # "ganó" / "ganaron" (a player alone, a partnership).
            ngettext(
                "Game %(number)s at %(table)s was ended as it stood: %(names)s won %(score)s.",
                "Game %(number)s at %(table)s was ended as it stood: %(names)s won %(score)s.",
                _alone(winner),
            )
            % {
                "number": game.number,
                "table": game.table,
                "names": team_names(winner),
                "score": _number(winner.total),
            }
        )
    return notes


@receiver(club_created, dispatch_uid="scoring-club-created")
def club_settings_made(sender, club, **kwargs) -> None:
    """A new club (made, or imported without them; inside its scope): its game settings,
    the shipped house rules as its default rule set, and its results version."""
    if not ClubSettings.objects.exists():
        preset = RuleSet.objects.filter(slug=DEFAULT_PRESET, is_preset=True).first()
        ClubSettings.objects.create(default_rule_set=preset)
    ResultsVersion.objects.get_or_create()  # saving the settings may have made it

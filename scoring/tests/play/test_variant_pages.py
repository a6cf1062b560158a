"""Each variant's table page through the real views (issue 25): the pad shows the boxes
its game has and no other, the live preview and Save score a hand of that game, an
impossible hand of that game is refused in plain words with nothing saved, and a
correction and the other team's OK work as they do for classic canasta.

Every hand goes through the pages a score keeper's phone posts to (``hand_new`` with
``action=preview`` or ``save``, ``hand_edit``, ``hand_confirm``); nothing is scored here
but by the views and the play services behind them.
"""

import csv
import html
import io
import re

import openpyxl
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring import engine
from scoring.labels import kinds_words
from scoring.models import Game, Hand, HandConfirmation, RuleSet, Season, TeamHand
from scoring.play.forms import HandEntry, hand_form_data
from scoring.play.services.games import start_game
from scoring.play.services.rulesets import copy_rule_set, edit_rule_set, set_day_rules

pytestmark = pytest.mark.django_db

#: The pad's rows (in order) of each game: only the boxes its game has.
PAD = {
    "club": ["Natural canastas", "Mixed canastas"],
    "modern-american": ["Natural canastas", "Mixed canastas", "Canastas of sevens"]
    + ["Canastas of aces"],
    "hand-and-foot": ["Natural canastas", "Mixed canastas"],
    "samba": ["Natural canastas", "Mixed canastas", "Sambas"],
    "bolivia": ["Natural canastas", "Mixed canastas", "Bolivias", "Escaleras"],
    "uruguayan": ["Natural canastas", "Mixed canastas", "Wild canastas"],
    "cuban": ["Natural canastas", "Mixed canastas"],
}
FIRST = ["Melded card points"]
LAST = ["Points left in hand", "Red threes", "Went out"]

#: Boxes of the other games that a game's pad and "More" never show.
NOT_IN = {
    "club": ["Sambas", "Escaleras", "Canastas of sevens", "Wild canastas", "Unfinished"],
    "modern-american": ["Sambas", "Escaleras", "Bolivias", "Perfect cut"],
    "hand-and-foot": ["Sambas", "Canastas of sevens", "Wild canastas", "Unfinished"],
    "samba": ["Canastas of sevens", "Wild canastas", "Bolivias", "Escaleras", "Unfinished"],
    "bolivia": ["Sambas", "Canastas of sevens", "Wild canastas", "Unfinished"],
    "uruguayan": ["Sambas", "Canastas of sevens", "Canastas of aces", "Escaleras"],
    "cuban": ["Sambas", "Canastas of sevens", "Escaleras", "Unfinished"],
}

#: A typical quick hand of each game, and team 1's score for it.
HANDS = {
    # 400 + sevens 2,500 + aces 2,500 + going out 100.
    "modern-american": (
        {"melded_points": 400, "canastas": {"sevens": 1, "aces": 1}, "went_out": "out"},
        5500,
    ),
    # 400 + two clean books 1,000 + two dirty 600 + going out 100.
    "hand-and-foot": (
        {"melded_points": 400, "canastas": {"natural": 2, "mixed": 2}, "went_out": "out"},
        2100,
    ),
    # 300 + natural 500 + a samba 1,500 + going out 200.
    "samba": (
        {"melded_points": 300, "canastas": {"natural": 1, "sequence": 1}, "went_out": "out"},
        2500,
    ),
    # 400 + a bolivia 2,500 + an escalera 1,500 + going out 200.
    "bolivia": (
        {"melded_points": 400, "canastas": {"bolivia": 1, "sequence": 1}, "went_out": "out"},
        4600,
    ),
    # 250 + a wild canasta 2,000 + going out 100.
    "uruguayan": (
        {"melded_points": 250, "canastas": {"wild": 1}, "went_out": "out"},
        2350,
    ),
    # 300 + seven deuces 4,000 + natural 500 + going out 100.
    "cuban": (
        {"melded_points": 300, "canastas": {"wild_twos": 1, "natural": 1}, "went_out": "out"},
        4900,
    ),
}
OTHER = {"melded_points": 120, "hand_points": 30}  # 90 for team 2


def _start(table, players, rule_set):
    ann, bob, cat, dan = players
    return start_game(
        table,
        [[ann, cat], [bob, dan]],
        rule_set=rule_set,
        score_keeper=ann,
        first_dealer=ann,
        now=timezone.now(),
    )


def _page(client, table) -> str:
    return client.get(reverse("scoring:table", args=[table.pk])).content.decode()


def _pad_rows(page: str) -> list[str]:
    labels = page[page.index('<div class="pad-labels"') :]
    labels = labels[: labels.index('<div class="team-entry')]
    return [html.unescape(t) for t in re.findall(r'class="row-label[^"]*">([^<]*)<', labels)]


def _post(client, game, teams, number, **options):
    view = "scoring:hand_preview" if options.get("action") == "preview" else "scoring:hand_new"
    url = reverse(view, args=[game.pk])
    return client.post(url, hand_form_data(teams, number, **options))


def _preview(client, game, teams, number):
    answer = _post(client, game, teams, number, action="preview")
    assert answer.status_code == 200
    text = answer.content.decode()
    return html.unescape(text[text.index('id="preview"') :])


def _scores(game) -> list[int]:
    return list(
        TeamHand.objects.filter(hand__game=game)
        .order_by("hand__number", "team__index")
        .values_list("hand_score", flat=True)
    )


@pytest.mark.parametrize("slug", list(PAD))
def test_each_game_shows_its_boxes_and_no_other(link_client, table, players, slug):
    _start(table, players, RuleSet.objects.get(slug=slug))
    page = _page(link_client, table)
    assert _pad_rows(page) == FIRST + PAD[slug] + LAST
    for words in NOT_IN[slug]:
        assert words not in page, words


@pytest.mark.parametrize("slug", list(HANDS))
def test_each_game_previews_saves_and_corrects_a_hand(link_client, table, players, slug):
    game = _start(table, players, RuleSet.objects.get(slug=slug))
    hand, score = HANDS[slug]
    shown = _preview(link_client, game, [hand, OTHER], 1)
    assert "Preview of hand 1 (not saved yet)" in shown
    assert f"Total 0 → {score:,}" in shown and "Total 0 → 90" in shown
    assert not Hand.objects.filter(game=game).exists()  # a preview saves nothing

    answer = _post(link_client, game, [hand, OTHER], 1)
    assert answer.status_code == 302
    assert _scores(game) == [score, 90]
    page = link_client.get(answer["Location"], follow=True).content.decode()
    assert "Hand 1 saved." in page

    # The keeper corrects hand 1: team 1 did not go out after all.
    edit = reverse("scoring:hand_edit", args=[game.pk, 1])
    assert f'value="{hand["melded_points"]}"' in link_client.get(edit).content.decode()
    stayed = {**hand, "went_out": "none"}
    answer = link_client.post(edit, hand_form_data([stayed, OTHER], 1, version=1))
    assert answer.status_code == 302, answer.content.decode()[:3000]
    out_bonus = engine.PRESETS[slug].going_out_bonus
    assert _scores(game) == [score - out_bonus, 90]
    game.refresh_from_db()
    assert game.teams.get(index=0).total == score - out_bonus


def _refused(client, game, teams, number=1) -> str:
    """Save a hand that cannot have happened: the page says why, nothing is saved."""
    saved = Hand.objects.filter(game=game).count()
    answer = _post(client, game, teams, number)
    assert answer.status_code == 200
    page = html.unescape(answer.content.decode())
    assert "The hand was not saved." in page
    assert Hand.objects.filter(game=game).count() == saved
    return page


def test_modern_american_refuses_more_sevens_than_the_decks_hold(link_client, table, players):
    game = _start(table, players, RuleSet.objects.get(slug="modern-american"))
    sevens = {"melded_points": 200, "canastas": {"sevens": 1}}
    page = _refused(link_client, game, [sevens, sevens])
    assert "need at least 14 sevens, but 2 decks hold only 8" in page


def test_modern_american_refuses_three_wild_cards_in_a_meld(link_client, table, players):
    game = _start(table, players, RuleSet.objects.get(slug="modern-american"))
    kings = {"melds": [{"rank": "K", "naturals": 5, "twos": 3}]}
    page = _refused(link_client, game, [kings, OTHER])
    assert "Team 1's meld of kings has 3 wild cards; a meld may hold at most 2 wild cards." in page
    # A meld of sevens has no wild-card boxes at all, card by card.
    form = HandEntry(game.engine_rules(), list(game.teams.order_by("index"))).teams[0]
    assert "meld_7_naturals" in form.fields and "meld_7_twos" not in form.fields


def test_modern_american_an_unfinished_sevens_meld_counts_minus(link_client, table, players):
    game = _start(table, players, RuleSet.objects.get(slug="modern-american"))
    # 400 + aces 2,500 + natural 500 + going out 100; team 2's three sevens cost 2,500.
    hand = {"melded_points": 400, "canastas": {"aces": 1, "natural": 1}, "went_out": "out"}
    open_sevens = {**OTHER, "unfinished": {"sevens": 1}}
    shown = _preview(link_client, game, [hand, open_sevens], 1)
    assert "Total 0 → 3,500" in shown and "Total 0 → -2,410" in shown  # 90 - 2,500
    assert _post(link_client, game, [hand, open_sevens], 1).status_code == 302
    assert _scores(game) == [3500, 90 - 2500]
    # With a canasta of sevens too, the three sevens more are more than two decks hold.
    sevens = {**hand, "canastas": {"aces": 1, "sevens": 1}}
    page = _refused(link_client, game, [sevens, open_sevens], 2)
    assert "need at least 10 sevens, but 2 decks hold only 8" in page


def test_a_sevens_canasta_with_a_wild_card_is_refused_where_sevens_are_a_kind(
    link_client, table, players
):
    """Hand and Foot with the calculator's house rule (sevens canastas 1,000, one setting
    away): another meld of sevens may be typed with twos, and is refused."""
    feet = RuleSet.objects.get(slug="hand-and-foot")
    sevens = copy_rule_set(feet, "Feet with sevens")
    settings = {**sevens.settings, "canasta_kinds": [{"kind": "sevens", "bonus": 1000}]}
    rules, refusals = engine.rules_from_spec(settings)
    assert rules is not None, refusals
    edit_rule_set(sevens, name=sevens.name, description="", rules=rules)
    game = _start(table, players, sevens)
    seven = {"melds": [{"rank": "7", "naturals": 7}, {"rank": "7", "naturals": 5, "twos": 2}]}
    page = _refused(link_client, game, [seven, OTHER])
    assert (
        "Team 1's meld of sevens (meld 2) holds 2 wild cards; under these rules sevens are "
        "melded without wild cards, so enter the wild cards elsewhere."
    ) in page or "sevens are melded without wild cards" in page
    assert 'href="#id_t0-extra1_rank"' in page  # said on the row of the second meld


def test_samba_refuses_going_out_with_a_samba_of_six(link_client, table, players):
    game = _start(table, players, RuleSet.objects.get(slug="samba"))
    six = {
        "melds": [{"rank": "K", "naturals": 7}, {"sequence": ["4", "5", "6", "7", "8", "9"]}],
        "went_out": "out",
    }
    page = _refused(link_client, game, [six, OTHER])
    assert "Team 1 went out but has only 1 canasta; 2 are needed to go out" in page
    # Counted as a samba when entered quick, six in sequence are too few points.
    quick = {"melded_points": 40, "canastas": {"sequence": 1}}
    page = _refused(link_client, game, [quick, OTHER])
    assert "Team 1 has 1 samba, which holds at least 50 points of cards" in page


def test_bolivia_refuses_going_out_without_an_escalera(link_client, table, players):
    game = _start(table, players, RuleSet.objects.get(slug="bolivia"))
    naturals = {"melded_points": 300, "canastas": {"natural": 2}, "went_out": "out"}
    page = _refused(link_client, game, [naturals, OTHER])
    assert (
        "Team 1 went out with no escalera; under these rules (Bolivia) going out needs "
        "1 escalera among its canastas."
    ) in page
    # An escalera holds no wild card: its card-by-card row has no box for one, and the
    # rule's own words are the engine's (scoring/tests/engine/test_variants.py).
    form = HandEntry(game.engine_rules(), list(game.teams.order_by("index"))).teams[0]
    assert {"seq1_from", "seq1_cards"} <= set(form.fields)
    assert not [name for name in form.fields if name.startswith("seq1_") and "wild" in name]
    assert not [name for name in form.fields if re.match(r"seq\d_(jokers|twos)", name)]


def test_hand_and_foot_refuses_going_out_without_its_books(link_client, table, players):
    game = _start(table, players, RuleSet.objects.get(slug="hand-and-foot"))
    short = {"melded_points": 400, "canastas": {"natural": 1, "mixed": 3}, "went_out": "out"}
    page = _refused(link_client, game, [short, OTHER])
    assert "Team 1 went out with only 1 natural canasta; under these rules (Hand and Foot)" in page


@pytest.mark.parametrize("slug", ["modern-american", "hand-and-foot", "samba", "bolivia"])
def test_the_other_teams_ok_in_each_game(link_client, table, players, day, slug):
    rule_set = RuleSet.objects.get(slug=slug)
    set_day_rules(day, rule_set, confirm_hands=True)
    game = _start(table, players, rule_set)
    hand, score = HANDS[slug]
    assert _post(link_client, game, [hand, OTHER], 1).status_code == 302
    saved = Hand.objects.get(game=game, number=1)
    page = _page(link_client, table)
    assert "Hand 1 waits for Team 2&#x27;s OK" in page
    bob = players[1]
    url = reverse("scoring:hand_confirm", args=[game.pk, 1])
    data = {"action": "confirm", "person": str(bob.pk), "version": str(saved.version)}
    assert link_client.post(url, data).status_code == 302
    confirmation = HandConfirmation.objects.get(hand=saved)
    assert confirmation.status == HandConfirmation.Status.CONFIRMED
    assert _scores(game) == [score, 90]
    assert Game.objects.get(pk=game.pk).status == Game.Status.PLAYING
    # The room board of a day of one game shows the table's game without its rules' name.
    board = Client()
    board.get(reverse("scoring:board_link", args=[day.board_code]))
    text = board.get(reverse("scoring:board", args=[day.pk])).content.decode()
    assert "Game 1 · 1 hand</p>" in text and rule_set.name not in text


# -- a club day with classic at one table and Hand and Foot at another -------------------

CLASSIC_WIN = {
    "melded_points": 600,
    "natural_canastas": 2,
    "mixed_canastas": 1,
    "red_threes": 2,
    "went_out": "out",
}  # 600 + 1,000 + 300 + 200 + 100 = 2,200
BOOKS = {"melded_points": 400, "canastas": {"natural": 2, "mixed": 2}, "went_out": "out"}


def _sheet(book, name) -> list[dict]:
    header, *body = book[name].iter_rows(values_only=True)
    return [dict(zip(header, row, strict=True)) for row in body]


def test_a_club_day_plays_classic_at_one_table_and_hand_and_foot_at_another(
    table, other_table, players, day, officer_user, django_capture_on_commit_callbacks
):
    Season.objects.create(name="This year", start=day.date.replace(month=1, day=1), end=day.date)
    set_day_rules(day, RuleSet.objects.get(slug="club"))  # the day plays the club's rules
    classic = _start(table, players, None)  # the day's rules
    people = [s.person for s in other_table.seats.order_by("position")]
    feet = start_game(
        other_table,
        [[people[0], people[2]], [people[1], people[3]]],
        rule_set=RuleSet.objects.get(slug="hand-and-foot"),
        now=timezone.now(),
    )
    assert classic.engine_rules().name == "club" and feet.engine_rules().hands_in_game == 4

    first, second = Client(), Client()
    assert first.get(f"/t/{table.token}/").status_code == 302
    assert second.get(f"/t/{other_table.token}/").status_code == 302
    # Each table's phone shows its own game: Hand and Foot's hands are counted to four.
    assert "· Hand 1</p>" in _page(first, table)
    assert "· Hand 1 of 4</p>" in _page(second, other_table)

    # The tables take turns saving; neither's hands reach the other.
    with django_capture_on_commit_callbacks(execute=True):
        for number in range(1, 5):
            if number <= 3:
                answer = _post(first, classic, [CLASSIC_WIN, OTHER], number)
                assert answer.status_code == 302, answer.content.decode()[:3000]
            other = {"melded_points": 50 * number + 100, "hand_points": 40}
            answer = _post(second, feet, [other, BOOKS], number)
            assert answer.status_code == 302, answer.content.decode()[:3000]
            # A phone of one table cannot save into the other table's game.
            assert _post(first, feet, [BOOKS, OTHER], number + 1).status_code == 404
    classic.refresh_from_db()
    feet.refresh_from_db()
    assert classic.status == Game.Status.FINISHED and classic.hand_count == 3
    assert [t.total for t in classic.teams.order_by("index")] == [6600, 270]
    assert feet.status == Game.Status.FINISHED and feet.hand_count == 4
    over = _page(second, other_table)
    assert "Game over: Team 2 wins" in over and "fewer than 4 hands" in over
    feet_totals = [sum(50 * n + 100 - 40 for n in range(1, 5)), 4 * 2100]
    assert [t.total for t in feet.teams.order_by("index")] == feet_totals
    assert classic.winner.index == 0 and feet.winner.index == 1

    officer = Client()
    officer.force_login(officer_user)
    # The day's results (its games as CSV, the page's own table): both games, each with
    # its winners and scores.
    url = reverse("scoring:day_result", args=[day.pk])
    answer = officer.get(url, {"_export": "csv"})
    assert answer.status_code == 200
    head, *body = csv.reader(io.StringIO(answer.content.decode("utf-8-sig")))
    played = {row[head.index("Table")]: row for row in body}
    assert set(played) == {"1", "2"}
    winners, against = head.index("Winners"), head.index("Against")
    first_score = head.index("Score")
    other_score = head.index("Score", first_score + 1)
    one, two = played["1"], played["2"]
    assert (one[winners], one[first_score]) == ("Ann Able & Cat Cole", "6600")
    assert (one[against], one[other_score]) == ("Bob Baker & Dan Dunn", "270")
    assert (two[winners], two[first_score]) == ("F Other & H Other", "8400")
    assert (two[against], two[other_score]) == ("E Other & G Other", "740")
    assert (one[head.index("Hands")], two[head.index("Hands")]) == ("3", "4")
    rules = head.index("Rules")
    assert (one[rules], two[rules]) == ("Club house rules", "Hand and Foot")
    # The page says which game each table played (a day of one game does not).
    page = html.unescape(officer.get(url).content.decode())
    games_table = page[page.index('id="games-heading"') :]
    assert "Rules" in games_table and "Hand and Foot" in games_table

    answer = officer.get(reverse("scoring:league_workbook"))
    assert answer.status_code == 200
    book = openpyxl.load_workbook(io.BytesIO(b"".join(answer.streaming_content)), read_only=True)
    rows = {row["Table"]: row for row in _sheet(book, "Games")}
    assert rows[1]["Rules"] == "Club house rules" and rows[1]["Winning score"] == 6600
    assert (rows[1]["Team 1 score"], rows[1]["Team 2 score"], rows[1]["Hands"]) == (6600, 270, 3)
    assert rows[2]["Rules"] == "Hand and Foot" and rows[2]["Winning score"] == 8400
    assert (rows[2]["Team 1 score"], rows[2]["Team 2 score"]) == tuple(feet_totals)
    assert rows[2]["Hands"] == 4
    standings = {row["Player"]: row for row in _sheet(book, "Standings")}
    assert standings["Ann Able"]["Won"] == 1 and standings["Bob Baker"]["Won"] == 0
    assert sum(row["Games"] for row in standings.values()) == 8

    # The room board: both tables with their games, both finished games with the totals.
    board = Client()
    assert board.get(reverse("scoring:board_link", args=[day.board_code])).status_code == 302
    shown = board.get(reverse("scoring:board", args=[day.pk]))
    assert shown.status_code == 200
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", shown.content.decode())).split())
    # Each table's card names its game, as the tables play different ones.
    assert "Table 1 Game 1 · 3 hands · Club house rules" in text
    assert "Table 2 Game 1 · 4 hands · Hand and Foot" in text
    finished = text[text.index("Finished games") :]
    assert "Table 1, game 1: Ann Able & Cat Cole 6,600 · Bob Baker & Dan Dunn 270" in finished
    assert "Table 2, game 1: E Other & G Other 740 · F Other & H Other 8,400" in finished


def test_the_kinds_in_words_keep_one_order_whatever_the_stored_order():
    """PostgreSQL gives a JSON object's keys back shortest first; the workbook's words
    keep the kinds' own order on every database."""
    words = "1 canasta of sevens; 1 canasta of aces; 2 wild canastas of twos"
    assert kinds_words({"aces": 1, "sevens": 1, "wild_twos": 2, "natural": 3}) == words
    assert kinds_words({"wild_twos": 2, "sevens": 1, "aces": 1}) == words


@pytest.mark.parametrize("slug", ["hand-and-foot", "samba"])
def test_a_double_tap_on_save_keeps_one_hand_in_each_game(link_client, table, players, slug):
    """The phone's key for a hand: the same Save sent twice (a double tap, a retry after
    a lost answer) saves one hand, and the second is told it was saved."""
    game = _start(table, players, RuleSet.objects.get(slug=slug))
    hand, score = HANDS[slug]
    url = reverse("scoring:hand_new", args=[game.pk])
    data = hand_form_data([hand, OTHER], 1) | {"key": "variant-key-0123456789"}
    first = link_client.post(url, data, follow=True)
    assert "Hand 1 saved." in first.content.decode()  # the message is read here
    again = link_client.post(url, data, follow=True)
    assert "Hand 1 saved." in again.content.decode()
    assert "another phone" not in again.content.decode().lower()
    assert Hand.objects.filter(game=game).count() == 1 and _scores(game) == [score, 90]

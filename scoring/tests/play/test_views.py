"""Scoring through the pages: entering, previewing, correcting and undoing hands."""

import re

import pytest
from django.urls import reverse

from scoring import engine
from scoring.models import Game, GameTeam, Hand, TeamHand
from scoring.play.services.games import start_game
from scoring.play.services.hands import failed_meld_counts, record_hand, undo_last_hand
from scoring.play.views import games as games_views
from scoring.tests.play.conftest import quick_post
from scoring.tests.samples import BIG, SMALL, quick


def new_url(game):
    return reverse("scoring:hand_new", args=[game.pk])


def failed_url(game, side, back=False):
    return reverse(
        "scoring:failed_meld_back" if back else "scoring:failed_meld", args=[game.pk, side]
    )


def table_url(game):
    return reverse("scoring:table", args=[game.table_id])


def detailed_post(teams, number, action="save"):
    """POST data for the hand form in card-by-card mode.
    ``teams``: [(melds {rank: (naturals, jokers, twos)}, hand_cards {key: n}, red, out)]."""
    data = {"number": str(number), "action": action}
    for i, (melds, cards, red, out) in enumerate(teams):
        p = f"t{i}-"
        data[p + "mode"] = "detailed"
        for rank, (n, j, t) in melds.items():
            slug = rank.lower()
            data[f"{p}meld_{slug}_naturals"] = str(n)
            if rank != "3":
                data[f"{p}meld_{slug}_jokers"] = str(j)
                data[f"{p}meld_{slug}_twos"] = str(t)
        for key, n in cards.items():
            data[f"{p}card_{key.lower()}"] = str(n)
        data[p + "red_threes"] = str(red)
        data[p + "went_out"] = out
    return data


def test_full_game_through_the_pages_in_quick_mode(link_client, game):
    for number in range(1, 5):
        page = link_client.get(table_url(game))
        assert f"Save hand {number}".encode() in page.content
        response = link_client.post(new_url(game), quick_post([BIG, SMALL], number))
        assert response.status_code == 302, response.content[:2000]
    game.refresh_from_db()
    assert game.is_finished and game.hand_count == 4
    page = link_client.get(table_url(game))
    assert b"Game over: Team 1 wins" in page.content
    assert b"Next game" in page.content
    assert b"Save hand" not in page.content
    assert Hand.objects.filter(entered_via="Table 1 link").count() == 4
    # The hand after the end is refused with a message, nothing saved.
    response = link_client.post(new_url(game), quick_post([BIG, SMALL], 5), follow=True)
    assert b"is over" in response.content
    assert Hand.objects.count() == 4


def test_full_game_in_card_by_card_mode(officer_client, game):
    # Team 1: natural canasta of kings, mixed canasta of queens, aces; goes out.
    team1 = ({"K": (7, 0, 0), "Q": (5, 1, 1), "A": (3, 0, 0)}, {}, 1, "out")
    # Team 2: three aces, which hold its first hand's initial meld of 50.
    team2 = ({"A": (3, 0, 0)}, {"J": 2, "joker": 1}, 0, "none")
    number = 0
    while True:
        number += 1
        response = officer_client.post(new_url(game), detailed_post([team1, team2], number))
        assert response.status_code == 302, _errors(response)
        game.refresh_from_db()
        if game.is_finished:
            break
        assert number < 20
    first = Hand.objects.get(game=game, number=1)
    assert first.inputs[0]["melds"][0] == {"rank": "A", "naturals": 3, "jokers": 0, "twos": 0}
    outcome = engine.score_hand(game.engine_rules(), first.inputs, [0, 0])
    row = TeamHand.objects.get(hand=first, team__index=0)
    assert row.hand_score == outcome.teams[0].hand_score
    assert row.natural_canastas == 1 and row.mixed_canastas == 1
    assert TeamHand.objects.get(hand=first, team__index=1).hand_points == 70


def _errors(response):
    entry = response.context and response.context.get("entry")
    if not entry:
        return response.content[:1000]
    return entry.top_errors, [
        (f.label, dict(f.errors), f.team_errors, f.meld_errors) for f in entry.teams
    ]


def test_saved_hands_match_the_score_hand_command(link_client, game, tmp_path):
    import json
    from io import StringIO

    from django.core.management import call_command

    link_client.post(new_url(game), quick_post([BIG, SMALL], 1))
    link_client.post(new_url(game), quick_post([SMALL, BIG], 2))
    requests = []
    rows = []
    for hand in Hand.objects.filter(game=game).order_by("number"):
        teams = list(TeamHand.objects.filter(hand=hand).order_by("team__index"))
        requests.append(
            {
                "rules": game.rules,
                "scores_before": [t.score_before for t in teams],
                "teams": hand.inputs,
            }
        )
        rows.append(teams)
    path = tmp_path / "hands.json"
    path.write_text(json.dumps(requests))
    out = StringIO()
    call_command("score_hand", str(path), stdout=out)
    results = json.loads(out.getvalue())
    for teams, result in zip(rows, results, strict=True):
        for row, team in zip(teams, result["teams"], strict=True):
            assert (row.hand_score, row.score_after, row.minimum_next) == (
                team["hand_score"],
                team["score_after"],
                team["minimum_next"],
            )
            assert row.breakdown == team["breakdown"]


# -- refusals through the form -----------------------------------------------------------


def post_quick(client, game, teams, **kw):
    return client.post(new_url(game), quick_post(teams, game.hand_count + 1, **kw))


def field_errors(response, team, field):
    entry = response.context["entry"]
    return list(entry.teams[team].errors.get(field, []))


REFUSALS = [
    # (team 1, team 2, team at fault, field at fault, words in the message)
    (quick(melded=123), SMALL, 0, "melded_points", "multiple of 5"),
    (quick(melded=120, hand=33), SMALL, 0, "hand_points", "multiple of 5"),
    (quick(melded=120, red=5), SMALL, 0, "red_threes", "hold only 4"),
    (quick(melded=0, natural=1), SMALL, 0, "natural_canastas", "no melded points"),
    (quick(melded=40, natural=1, mixed=1), SMALL, 0, "melded_points", "at least"),
    (quick(melded=1185), SMALL, 0, "melded_points", "1,180"),
    (quick(melded=300, natural=1, out="out"), SMALL, 0, "went_out", "2 are needed"),
    (SMALL, quick(melded=200, natural=1, out="concealed"), 1, "went_out", "canasta"),
]


@pytest.mark.parametrize("team1,team2,at,field,words", REFUSALS)
def test_refusal_shows_on_the_field_at_fault_and_keeps_what_was_typed(
    link_client, game, team1, team2, at, field, words
):
    response = post_quick(link_client, game, [team1, team2])
    assert response.status_code == 200
    errors = field_errors(response, at, field)
    assert errors and words in " ".join(errors), (errors, _errors(response))
    html = response.content.decode()
    typed = str([team1, team2][at][field if field != "went_out" else "melded_points"])
    assert (
        f'name="t{at}-{"melded_points" if field == "went_out" else field}" value="{typed}"'
        in html.replace(' inputmode="numeric" pattern="[0-9]*" autocomplete="off" class="num"', "")
        or f'value="{typed}"' in html
    )
    assert not Hand.objects.exists()


def test_refusals_about_the_whole_hand_show_at_the_top(link_client, game):
    both_out = [
        quick(melded=400, natural=1, mixed=1, out="out"),
        quick(melded=400, natural=1, mixed=1, out="out"),
    ]
    response = post_quick(link_client, game, both_out)
    entry = response.context["entry"]
    assert any("only one team can go out" in m for m in entry.top_errors)
    assert b"The hand was not saved." in response.content
    too_many_red = [quick(melded=120, red=3), quick(melded=120, red=2)]
    response = post_quick(link_client, game, too_many_red)
    assert any("red threes" in m for m in response.context["entry"].top_errors)
    too_many_points = [quick(melded=700), quick(melded=600)]
    response = post_quick(link_client, game, too_many_points)
    assert any("1,180" in m for m in response.context["entry"].top_errors)
    assert not Hand.objects.exists()


def test_penalty_refusals_land_on_the_penalty_boxes(link_client, game):
    data = quick_post([SMALL, SMALL], 1)
    data["t0-pen_other_points"] = "50"
    response = link_client.post(new_url(game), data)
    assert "needs a note" in " ".join(field_errors(response, 0, "pen_other_note"))
    data["t0-pen_other_points"] = "52"
    data["t0-pen_other_note"] = "Talking across the table"
    response = link_client.post(new_url(game), data)
    assert "multiple of 5" in " ".join(field_errors(response, 0, "pen_other_points"))
    assert b"Talking across the table" in response.content
    data["t0-pen_other_points"] = "50"
    data["t1-pen_discard_unused"] = "2"
    response = link_client.post(new_url(game), data)
    assert response.status_code == 302
    rows = TeamHand.objects.order_by("team__index")
    assert [r.penalty_points for r in rows] == [50, 100]


def test_detailed_meld_refusal_shows_on_its_rank_row(link_client, game):
    bad = ({"K": (2, 2, 1)}, {}, 0, "none")  # 3 wild cards with 2 naturals: outnumbered
    ok = ({"5": (3, 0, 0)}, {}, 0, "none")
    response = link_client.post(new_url(game), detailed_post([bad, ok], 1))
    assert response.status_code == 200
    form = response.context["entry"].teams[0]
    assert "K" in form.meld_errors, _errors(response)
    html = response.content.decode()
    assert 'class="row-error"' in html
    assert 'name="t0-meld_k_jokers" value="2"' in html.replace(
        ' inputmode="numeric" pattern="[0-9]*" autocomplete="off" class="num"', ""
    )


def test_too_many_cards_of_a_rank_across_teams(link_client, game):
    a = ({"K": (7, 0, 0)}, {"K": 1}, 0, "none")
    b = ({"K": (3, 0, 0)}, {}, 0, "none")
    response = link_client.post(new_url(game), detailed_post([a, b], 1))
    assert any("kings" in m for m in response.context["entry"].top_errors), _errors(response)


def test_garbage_in_a_box_is_told_on_that_box(link_client, game):
    data = quick_post([SMALL, SMALL], 1)
    data["t1-red_threes"] = "two"
    data["t0-melded_points"] = "99999999999999999999"
    response = link_client.post(new_url(game), data)
    assert response.status_code == 200
    assert "whole number" in " ".join(field_errors(response, 1, "red_threes"))
    assert "too large" in " ".join(field_errors(response, 0, "melded_points"))
    assert b'value="two"' in response.content


def test_tampered_hidden_fields(link_client, game):
    data = quick_post([SMALL, SMALL], 1)
    for number in ("", "abc", "-3", "0", "99999999999"):
        data["number"] = number
        response = link_client.post(new_url(game), data)
        assert response.status_code == 200
        assert b"reload the page" in response.content
    data["number"] = "7"
    response = link_client.post(new_url(game), data)
    assert b"cannot be entered yet" in response.content
    # The bar says what to do next instead of offering a Save that would fail again.
    bar = response.content.decode().split('id="hand-bar"')[1].split("</form>")[0]
    assert "Nothing was saved:" in bar and "show the table as it is now</a>" in bar
    assert "Save hand" not in bar
    data["number"] = "1"
    data["t0-went_out"] = "flying"
    data["t0-mode"] = "sideways"
    response = link_client.post(new_url(game), data)
    assert response.status_code == 200
    assert not Hand.objects.exists()


def test_perfect_cut_only_under_rules_that_have_it(officer_client, table, players, classic_rules):
    ann, bob, cat, dan = players
    game = start_game(table, [[ann, cat], [bob, dan]], rule_set=classic_rules)
    page = officer_client.get(table_url(game))
    assert b"t0-perfect_cut" not in page.content
    data = quick_post([SMALL, SMALL], 1)
    data["t0-perfect_cut"] = "on"  # tampered: ignored, the box does not exist
    assert officer_client.post(new_url(game), data).status_code == 302
    assert TeamHand.objects.filter(perfect_cut=True).count() == 0


# -- preview ----------------------------------------------------------------------------


def test_preview_partial_shows_the_breakdown(link_client, game):
    url = reverse("scoring:hand_preview", args=[game.pk])
    response = link_client.post(url, quick_post([BIG, SMALL], 1), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" not in html
    assert "Preview of hand 1" in html and "+1,400" in html
    assert "Total 0 → 1,400" in html
    assert not Hand.objects.exists()


def test_preview_partial_shows_refusals(link_client, game):
    url = reverse("scoring:hand_preview", args=[game.pk])
    response = link_client.post(
        url, quick_post([quick(melded=123), SMALL], 1), HTTP_HX_REQUEST="true"
    )
    assert b"multiple of 5" in response.content
    data = quick_post([SMALL, SMALL], 1)
    data["t0-red_threes"] = "lots"
    response = link_client.post(url, data, HTTP_HX_REQUEST="true")
    assert b"Team 1, Red threes" in response.content


def test_preview_of_the_game_ending_hand(link_client, game):
    for n in (1, 2, 3):
        record_hand(game, [BIG, SMALL], number=n)
    url = reverse("scoring:hand_preview", args=[game.pk])
    response = link_client.post(url, quick_post([BIG, SMALL], 4), HTTP_HX_REQUEST="true")
    assert b"This hand ends the game" in response.content


def test_preview_button_without_javascript(link_client, game):
    url = reverse("scoring:hand_preview", args=[game.pk])
    response = link_client.post(url, quick_post([BIG, SMALL], 1, action="preview"))
    assert response.status_code == 200
    assert b"Preview of hand 1" in response.content
    assert b'value="400"' in response.content
    assert not Hand.objects.exists()


def test_the_form_opens_a_number_pad_and_labels_every_box(link_client, game):
    html = link_client.get(table_url(game)).content.decode()
    # Card by card boxes come when chosen (scoring:hand_detail): check them too.
    for side in (0, 1):
        html += link_client.get(
            reverse("scoring:hand_detail", args=[game.pk, side])
        ).content.decode()
    boxes = re.findall(r'<input type="text" name="(t\d-[a-z0-9_]+)"[^>]*>', html)
    assert len(boxes) > 60
    for tag in re.findall(r'<input type="text" name="t\d-[a-z0-9_]+"[^>]*>', html):
        if "pen_other_note" in tag:
            continue
        assert 'inputmode="numeric"' in tag and 'pattern="[0-9]*"' in tag, tag
    for name in boxes:
        assert f'for="id_{name}"' in html, name
    assert 'hx-post="' in html and 'hx-trigger="input delay:300ms"' in html


# -- failed initial melds ----------------------------------------------------------------


def test_failed_initial_meld_raises_the_minimum_for_this_hand(link_client, game):
    data = quick_post([SMALL, SMALL], 1)
    response = link_client.post(failed_url(game, 1), data)
    assert response.status_code == 200
    board = response.context["board"]
    assert [b["minimum"] for b in board] == [50, 60]
    assert b"50 \xe2\x86\x92 60" in response.content  # 50 → 60
    assert b'value="120"' in response.content  # what was typed is kept
    page = link_client.get(table_url(game))
    assert [b["minimum"] for b in page.context["board"]] == [50, 60]
    link_client.post(failed_url(game, 1), quick_post([SMALL, SMALL], 1))
    link_client.post(failed_url(game, 1, back=True), quick_post([SMALL, SMALL], 1))
    page = link_client.get(table_url(game))
    assert [b["minimum"] for b in page.context["board"]] == [50, 60]
    link_client.post(failed_url(game, 99), quick_post([SMALL, SMALL], 1))
    # Saving the hand resets it.
    link_client.post(new_url(game), quick_post([SMALL, SMALL], 1))
    page = link_client.get(table_url(game))
    assert [b["minimum"] for b in page.context["board"]] == [50, 50]


def test_a_failed_initial_meld_shows_on_every_device_at_the_table(
    link_client, officer_client, game
):
    link_client.post(failed_url(game, 0), quick_post([SMALL, SMALL], 1))
    link_client.post(failed_url(game, 0), quick_post([SMALL, SMALL], 1))
    page = officer_client.get(table_url(game))  # another device, another session
    assert [b["minimum"] for b in page.context["board"]] == [70, 50]
    assert "2 failed melds: 50 → 70" in page.content.decode()
    officer_client.post(failed_url(game, 0, back=True), quick_post([SMALL, SMALL], 1))
    page = link_client.get(table_url(game))
    assert [b["minimum"] for b in page.context["board"]] == [60, 50]


def test_undoing_a_hand_forgets_the_failed_melds_of_the_next_one(link_client, game):
    record_hand(game, [SMALL, SMALL], number=1)
    link_client.post(failed_url(game, 1), quick_post([SMALL, SMALL], 2))
    undo_last_hand(game, expected_hand_count=1)
    record_hand(game, [SMALL, SMALL], number=1)
    page = link_client.get(table_url(game))
    assert [b["minimum"] for b in page.context["board"]] == [50, 50]


def test_no_failed_meld_on_a_finished_game(link_client, game):
    number = 0
    while not game.is_finished:
        number += 1
        record_hand(game, [BIG, SMALL], number=number)
    response = link_client.post(
        failed_url(game, 0), quick_post([SMALL, SMALL], number + 1), follow=True
    )
    assert "is over" in response.content.decode()
    game.refresh_from_db()
    assert failed_meld_counts(game) == [0, 0]


# -- two devices -------------------------------------------------------------------------


def test_double_save_tells_the_second_device_who_saved_it(
    client, officer_client, game, django_user_model
):
    # Device A: the officer. Device B: the table link (another client).
    from django.test import Client

    device_b = Client()
    device_b.get(reverse("scoring:table_link", args=[game.table.token]))
    assert officer_client.post(new_url(game), quick_post([BIG, SMALL], 1)).status_code == 302
    response = device_b.post(new_url(game), quick_post([SMALL, BIG], 1))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Hand 1 was already entered by Olive Officer at" in html
    assert "+1,400" in html  # the saved hand's scores are shown
    # The page is about hand 1: it names no dealer (Bob deals hand 2, Ann dealt hand 1).
    assert "· Hand 1</p>" in html and 'class="next-deal"' not in html
    assert 'name="t0-melded_points" value="120"' in html.replace(
        ' inputmode="numeric" pattern="[0-9]*" autocomplete="off" class="num"', ""
    )
    assert Hand.objects.count() == 1
    # Both hands side by side, the differences marked; keep the saved one or replace it.
    assert "≠ </span>Melded card points" in html
    assert b"Keep the saved hand" in response.content
    assert b"Replace it with mine" in response.content
    again = device_b.post(new_url(game), quick_post([SMALL, BIG], 1))
    assert b"already entered" in again.content
    assert Hand.objects.count() == 1


# -- corrections, undo, history ----------------------------------------------------------


def test_correcting_an_earlier_hand(officer_client, game):
    for n in (1, 2, 3):
        record_hand(game, [SMALL, SMALL], number=n)
    url = reverse("scoring:hand_edit", args=[game.pk, 1])
    page = officer_client.get(url)
    assert page.status_code == 200
    assert b'name="version" value="1"' in page.content
    response = officer_client.post(url, quick_post([BIG, SMALL], 1, version=1))
    assert response.status_code == 302
    assert [t.total for t in game.teams.order_by("index")] == [1560, 240]
    # A stale form (version 1 again) never overwrites the newer hand.
    stale = officer_client.post(url, quick_post([SMALL, BIG], 1, version=1))
    assert stale.status_code == 200
    assert b"was changed after you opened it" in stale.content
    assert b'name="version" value="2"' in stale.content
    assert Hand.objects.get(number=1).inputs[0] == BIG
    # Saving again after seeing it replaces it.
    again = officer_client.post(url, quick_post([SMALL, BIG], 1, version=2))
    assert again.status_code == 302
    assert Hand.objects.get(number=1).version == 3


def test_correction_refused_with_typed_values_kept(officer_client, game):
    record_hand(game, [SMALL, SMALL], number=1)
    url = reverse("scoring:hand_edit", args=[game.pk, 1])
    response = officer_client.post(url, quick_post([quick(melded=123), SMALL], 1, version=1))
    assert response.status_code == 200
    assert "multiple of 5" in " ".join(response.context["entry"].teams[0].errors["melded_points"])
    assert b'value="123"' in response.content


def test_correction_preview_uses_the_hands_own_scores_before(officer_client, game):
    for n in (1, 2):
        record_hand(game, [BIG, SMALL], number=n)
    url = reverse("scoring:hand_preview", args=[game.pk])
    response = officer_client.post(
        url, quick_post([SMALL, SMALL], 2, version=1), HTTP_HX_REQUEST="true"
    )
    assert b"Total 1,400 \xe2\x86\x92 1,480" in response.content


def test_undo_through_the_page(link_client, game):
    for n in range(1, 5):
        record_hand(game, [BIG, SMALL], number=n)
    url = reverse("scoring:hand_undo", args=[game.pk])
    page = link_client.get(url)
    assert b"Undo hand 4?" in page.content and b"re-opens the game" in page.content
    response = link_client.post(url, {"hand_count": "4"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.hand_count == 3 and game.status == Game.Status.PLAYING
    stale = link_client.post(url, {"hand_count": "4"}, follow=True)
    assert b"Nothing was undone" in stale.content
    for junk in ("", "x", "-1"):
        assert link_client.post(url, {"hand_count": junk}).status_code == 302
    assert Hand.objects.count() == 3


def test_history_is_shown_to_officers_only(officer_client, game, players, django_user_model):
    from django.test import Client

    device = Client()
    device.get(reverse("scoring:table_link", args=[game.table.token]))
    device.post(new_url(game), quick_post([SMALL, SMALL], 1))
    device.post(new_url(game), quick_post([SMALL, SMALL], 2))
    changed = quick(melded=120, hand=40, red=1)
    officer_client.post(
        reverse("scoring:hand_edit", args=[game.pk, 1]), quick_post([SMALL, changed], 1, version=1)
    )
    officer_client.post(reverse("scoring:hand_undo", args=[game.pk]), {"hand_count": "2"})
    page = officer_client.get(reverse("scoring:game", args=[game.pk]))
    html = page.content.decode()
    assert "History of changes" in html
    assert "Hand 1 corrected</strong> by Olive Officer" in html
    assert "Team 2 (Bob Baker &amp; Dan Dunn) red threes 0 → 1" in html
    assert "Hand 2 undone</strong> by Olive Officer" in html
    assert "Hand 1 entered</strong> by Table 1 link" in html
    # The table link device and a seated member see no history.
    assert b"History of changes" not in device.get(reverse("scoring:game", args=[game.pk])).content
    user = django_user_model.objects.create_user("cat", password="x-pass-1234567")
    cat = players[2]
    cat.user = user
    cat.save()
    member = Client()
    member.force_login(user)
    member_page = member.get(reverse("scoring:game", args=[game.pk]))
    assert member_page.status_code == 200
    assert b"History of changes" not in member_page.content


# -- starting games ----------------------------------------------------------------------


def _partners_opposite(players) -> dict:
    """The start form: Ann & Cat against Bob & Dan, Ann keeping the score."""
    ann, bob, cat, dan = players
    return {
        "team0_player0": ann.pk,
        "team0_player1": cat.pk,
        "team1_player0": bob.pk,
        "team1_player1": dan.pk,
        "score_keeper": ann.pk,
    }


def test_start_the_first_game_from_the_table(link_client, table, players, club_rules):
    page = link_client.get(reverse("scoring:table", args=[table.pk]))
    assert b"Start the first game" in page.content
    url = reverse("scoring:game_start", args=[table.pk])
    form = link_client.get(url)
    assert form.status_code == 200
    ann, bob, cat, dan = players
    # Partners opposite are proposed.
    assert form.context["form"]["team0_player1"].value() == str(cat.pk)
    data = {**_partners_opposite(players), "first_dealer": bob.pk}
    response = link_client.post(url, data)
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.first_dealer == bob and game.score_keeper == ann
    assert game.rules == club_rules.settings
    assert link_client.get(url).status_code == 302  # a game is being played


def test_start_game_refusals(link_client, table, players, club_rules):
    ann, bob, cat, dan = players
    url = reverse("scoring:game_start", args=[table.pk])
    data = {
        "team0_player0": ann.pk,
        "team0_player1": ann.pk,
        "team1_player0": bob.pk,
        "team1_player1": "99999",
        "score_keeper": "junk",
    }
    response = link_client.post(url, data)
    assert response.status_code == 200
    form = response.context["form"]
    assert form.errors
    assert not Game.objects.exists()


def test_next_game_by_the_club_draw(link_client, game, players):
    ann, bob, cat, dan = players
    for n in range(1, 5):
        record_hand(game, [BIG, SMALL], number=n)
    url = reverse("scoring:next_game", args=[game.pk])
    page = link_client.get(url)
    assert b"Bob Baker (on the keeper&#x27;s left)" in page.content
    # Start without a name tapped: told what to do, in plain words; nothing started.
    refused = link_client.post(url, {"method": "draw"}).content.decode()
    assert "Tap the name of the one who drew the higher card, then start the game." in refused
    assert "This field is required" not in refused and not Game.objects.filter(number=2)
    response = link_client.post(url, {"method": "draw", "high_card": str(dan.pk)})
    assert response.status_code == 302
    second = Game.objects.get(number=2)
    teams = [{m.person for m in t.memberships.all()} for t in second.teams.order_by("index")]
    assert teams == [{ann, dan}, {cat, bob}]
    assert link_client.get(url).status_code == 302  # already started
    page = link_client.get(reverse("scoring:table", args=[game.table_id]))
    assert b"Game 2" in page.content


def test_next_game_by_choice(link_client, game, players):
    ann, bob, cat, dan = players
    for n in range(1, 5):
        record_hand(game, [BIG, SMALL], number=n)
    url = reverse("scoring:next_game", args=[game.pk])
    data = {
        "method": "choose",
        "team0_player0": ann.pk,
        "team0_player1": bob.pk,
        "team1_player0": cat.pk,
        "team1_player1": dan.pk,
        "score_keeper": cat.pk,
    }
    assert link_client.post(url, data).status_code == 302
    assert Game.objects.get(number=2).score_keeper == cat


def _the_other_tap_wins(monkeypatch, name):
    """The view's service call as it goes when two taps (or two phones) race: the other
    request starts the game between this one's checks and its own start."""
    real = getattr(games_views, name)

    def raced(*args, **kwargs):
        real(*args, **kwargs)  # the other tap, a moment earlier
        return real(*args, **kwargs)

    monkeypatch.setattr(games_views, name, raced)


def _next_message(client, response):
    page = client.get(response["Location"])
    return [str(m) for m in page.context["messages"]]


def test_start_game_double_tap_goes_to_the_game_it_started(
    link_client, table, players, club_rules, monkeypatch
):
    _the_other_tap_wins(monkeypatch, "start_game")
    url = reverse("scoring:game_start", args=[table.pk])
    response = link_client.post(url, _partners_opposite(players))
    assert response.status_code == 302
    assert response["Location"] == reverse("scoring:table", args=[table.pk])
    assert Game.objects.count() == 1
    assert _next_message(link_client, response) == ["Game 1 is being played at this table."]


def test_next_game_double_tap_goes_to_the_game_it_started(link_client, game, players, monkeypatch):
    for n in range(1, 5):
        record_hand(game, [BIG, SMALL], number=n)
    _the_other_tap_wins(monkeypatch, "start_next_game")
    ann, bob, cat, dan = players
    url = reverse("scoring:next_game", args=[game.pk])
    response = link_client.post(url, {"method": "draw", "high_card": str(dan.pk)})
    assert response.status_code == 302
    assert Game.objects.filter(table=game.table).count() == 2
    messages = _next_message(link_client, response)
    assert messages == ["Game 2 has already started at this table."]
    assert not any("still being played" in m for m in messages)


def test_next_game_before_the_end_is_refused(link_client, game):
    response = link_client.get(reverse("scoring:next_game", args=[game.pk]))
    assert response.status_code == 302


# -- query budget ------------------------------------------------------------------------


def test_table_page_queries_do_not_grow_with_hands(
    link_client, game, django_assert_max_num_queries
):
    record_hand(game, [SMALL, SMALL], number=1)
    url = table_url(game)
    # 11 on SQLite since the teams are read with their players (issue 32; 20 before).
    with django_assert_max_num_queries(12) as few:
        link_client.get(url)
    for n in range(2, 12):
        record_hand(game, [SMALL, SMALL], number=n)
    with django_assert_max_num_queries(len(few.captured_queries)):
        link_client.get(url)


def test_the_table_page_of_an_ordinary_club_day_asks_nothing_about_events(
    link_client, game, django_assert_max_num_queries
):
    """A club that never runs an event pays nothing for events on its table pages: no
    read of the event tables and none of the shared cache (a SELECT of the cache table
    with the default database cache)."""
    record_hand(game, [SMALL, SMALL], number=1)
    url = table_url(game)
    link_client.get(url)
    with django_assert_max_num_queries(20) as page:
        link_client.get(url)
    asked = [q["sql"] for q in page.captured_queries if "tourney" in q["sql"]]
    assert asked == []


def test_game_page_queries_do_not_grow_with_hands(
    officer_client, game, django_assert_max_num_queries
):
    record_hand(game, [SMALL, SMALL], number=1)
    url = reverse("scoring:game", args=[game.pk])
    # 14 on SQLite since the teams are read with their players (issue 32; 25 before).
    officer_client.get(url)  # the login's first page: the menu asks once if it is a member's
    with django_assert_max_num_queries(16) as few:
        officer_client.get(url)
    for n in range(2, 12):
        record_hand(game, [SMALL, SMALL], number=n)
    with django_assert_max_num_queries(len(few.captured_queries)):
        officer_client.get(url)


def test_totals_are_stored_with_the_hand(link_client, game):
    link_client.post(new_url(game), quick_post([BIG, SMALL], 1))
    assert list(GameTeam.objects.filter(game=game).values_list("total", "minimum")) == [
        (1400, 50),
        (80, 50),
    ]


# -- the hand form's boxes ---------------------------------------------------------------


def _boxes(page) -> str:
    """The hand form up to the bar: what is wrong (above the pad), then the boxes."""
    html = page.content.decode()
    return html[html.index('id="hand-form"') : html.index('<div id="preview"')]


def test_each_game_shows_its_own_players_on_the_boxes(officer_client, game, other_table):
    e, f, g, h = [seat.person for seat in other_table.seats.order_by("position")]
    other = start_game(other_table, [[e, g], [f, h]])
    officer_client.get(table_url(game))
    mine = _boxes(officer_client.get(table_url(game)))
    theirs = _boxes(officer_client.get(table_url(other)))
    assert "Ann" in mine and "Ann" not in theirs
    assert e.full_name in theirs and e.full_name not in mine


def test_a_refused_hand_shows_what_was_typed_after_an_empty_form(link_client, game):
    link_client.get(table_url(game))  # the empty boxes drawn first
    data = quick_post([quick(melded=120), quick(melded=120)], 1)
    data["t0-red_threes"] = "lots"
    page = link_client.post(new_url(game), data)
    boxes = _boxes(page)
    assert "Enter a whole number" in boxes
    assert 'value="lots"' in boxes


def test_a_refused_hand_costs_no_more_queries_than_the_table_page(link_client, game):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    record_hand(game, [SMALL, SMALL], number=1)
    link_client.get(table_url(game))
    with CaptureQueriesContext(connection) as page:
        link_client.get(table_url(game))
    data = quick_post([SMALL, SMALL], 2)
    data["t0-red_threes"] = "lots"
    with CaptureQueriesContext(connection) as refused:
        response = link_client.post(new_url(game), data)
    assert "Enter a whole number" in response.content.decode()
    assert len(refused) <= len(page), [q["sql"][:80] for q in refused.captured_queries]

"""Rule sets: copy a preset, change any setting (validated by the engine), club default,
the rules of a club day."""

from django.urls import reverse

from scoring import engine
from scoring.models import ClubSettings, DayRules, RuleSet
from scoring.play.forms import RuleSetForm
from scoring.play.services.hands import record_hand, undo_last_hand
from scoring.play.services.rulesets import rule_set_for_day
from scoring.tests.samples import BIG, SMALL


def test_presets_exist_with_club_as_default(club_rules):
    assert set(RuleSet.objects.presets().values_list("slug", flat=True)) == set(engine.PRESET_SLUGS)
    assert RuleSet.objects.club_default() == club_rules
    for rs in RuleSet.objects.presets():
        assert rs.settings == engine.PRESETS[rs.slug].to_dict()


def test_copy_a_preset_and_change_a_setting(officer_client, club_rules):
    response = officer_client.post(
        reverse("scoring:ruleset_new"), {"source": club_rules.pk, "name": "Club 2026"}
    )
    assert response.status_code == 302
    copy = RuleSet.objects.get(name="Club 2026")
    assert not copy.is_preset and copy.based_on == "club"
    url = reverse("scoring:ruleset_edit", args=[copy.pk])
    data = RuleSetForm.initial_from(copy)
    data = {
        k: ("on" if v is True else "" if v is False else v)
        for k, v in data.items()
        if v is not False
    }
    data["target_score"] = "3000"
    data["red_three_schedule"] = "4 = 1000"
    data["initial_meld_table"] = "below = 15\n0 = 50\n1500 = 90\n2500 = 120"
    response = officer_client.post(url, data)
    assert response.status_code == 302, response.context["form"].errors
    copy.refresh_from_db()
    rules = copy.as_engine()
    assert rules.target_score == 3000
    assert rules.red_three_schedule == ((4, 1000),)
    assert rules.initial_meld_table[-1] == (2500, 120)
    assert rules.perfect_cut_enabled  # kept from the club preset


def test_engine_refusals_show_on_the_setting(officer_client, club_rules):
    copy = RuleSet.objects.create(
        name="Mine", slug="mine", based_on="club", settings=club_rules.settings
    )
    url = reverse("scoring:ruleset_edit", args=[copy.pk])
    data = {k: v for k, v in RuleSetForm.initial_from(copy).items() if v is not False}
    data = {k: ("on" if v is True else v) for k, v in data.items()}
    data["target_score"] = "3003"
    data["players"] = "5"
    data["red_three_schedule"] = "four = lots"
    response = officer_client.post(url, data)
    assert response.status_code == 200
    form = response.context["form"]
    assert "red_three_schedule" in form.errors
    data["red_three_schedule"] = "4 = 800"
    response = officer_client.post(url, data)
    form = response.context["form"]
    assert "multiple of 5" in " ".join(form.errors.get("target_score", [])), form.errors
    data["target_score"] = "3000"
    response = officer_client.post(url, data)
    form = response.context["form"]
    assert "players" in form.errors, form.errors
    copy.refresh_from_db()
    assert copy.settings == club_rules.settings


def test_long_text_in_a_rule_set_is_refused_with_its_cap(officer_client, club_rules):
    copy = RuleSet.objects.create(
        name="Mine", slug="mine", based_on="club", settings=club_rules.settings
    )
    url = reverse("scoring:ruleset_edit", args=[copy.pk])
    data = {k: v for k, v in RuleSetForm.initial_from(copy).items() if v is not False}
    data = {k: ("on" if v is True else v) for k, v in data.items()}
    data["description"] = "d" * 5000
    data["red_three_schedule"] = "4 = 800\n" * 5000
    response = officer_client.post(url, data)
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert "at most 1000 characters" in " ".join(errors["description"])
    assert "at most 500 characters" in " ".join(errors["red_three_schedule"])
    assert "At most 1,000 characters." in officer_client.get(url).content.decode()
    copy.refresh_from_db()
    assert copy.description == "" and copy.settings == club_rules.settings


def test_presets_are_read_only(officer_client, club_rules):
    url = reverse("scoring:ruleset_edit", args=[club_rules.pk])
    page = officer_client.get(url)
    assert b"cannot be changed" in page.content
    officer_client.post(url, {"name": "Hacked", "target_score": "10"})
    club_rules.refresh_from_db()
    assert club_rules.name != "Hacked"
    assert club_rules.settings == engine.PRESETS["club"].to_dict()


def test_make_club_default(officer_client, classic_rules, club_rules):
    officer_client.post(reverse("scoring:ruleset_default", args=[classic_rules.pk]))
    assert RuleSet.objects.club_default() == classic_rules
    assert ClubSettings.objects.get().default_rule_set == classic_rules  # the club's one
    assert (
        officer_client.get(reverse("scoring:ruleset_default", args=[club_rules.pk])).status_code
        == 405
    )


def test_day_rules(officer_client, table, classic_rules):
    url = reverse("scoring:day_rules", args=[table.round.day_id])
    page = officer_client.get(url)
    assert b"club default" in page.content
    assert officer_client.post(url, {"rule_set": classic_rules.pk}).status_code == 302
    assert DayRules.objects.get(day=table.round.day).rule_set == classic_rules
    assert rule_set_for_day(table.round.day) == classic_rules
    assert officer_client.post(url, {"rule_set": "nope"}).status_code == 200


def test_editing_a_rule_set_keeps_old_games(officer_client, game, club_rules):
    copy = RuleSet.objects.create(
        name="Mine", slug="mine", based_on="club", settings=club_rules.settings
    )
    frozen = dict(game.rules)
    copy.settings = {**copy.settings, "target_score": 2000}
    copy.save()
    game.refresh_from_db()
    assert game.rules == frozen


def test_table_cards(officer_client, table, other_table):
    response = officer_client.get(reverse("scoring:table_cards", args=[table.round.day_id]))
    html = response.content.decode()
    assert "KXM7QP" in html and "WYN3RT" in html
    assert html.count("<svg") >= 2
    assert f"/t/{table.token}/" in html


def test_officer_can_play_another_rule_set_at_a_table(officer_client, table, players, db):
    two = RuleSet.objects.get(slug="two-player")
    url = reverse("scoring:game_start", args=[table.pk])
    page = officer_client.get(url, {"rule_set": two.pk})
    assert b"Two-player canasta" in page.content
    assert b"<legend>The players, each alone" in page.content and b"Team 1" not in page.content
    assert b"Player 2" in page.content
    ann, bob = players[:2]
    response = officer_client.post(
        url, {"rule_set": two.pk, "team0_player0": ann.pk, "team1_player0": bob.pk}
    )
    assert response.status_code == 302
    from scoring.models import Game

    game = Game.objects.get()
    assert game.rule_set == two
    # Played to the end, the next game's form names the sides as players too.
    big = {"melded_points": 400, "natural_canastas": 2, "red_threes": 1, "went_out": "out"}
    small = {"melded_points": 50, "hand_points": 0, "went_out": "none"}
    number = 0
    while not game.is_finished:
        number += 1
        record_hand(game, [big, small], number=number)
    page = officer_client.get(reverse("scoring:next_game", args=[game.pk]))
    assert (
        b"<legend>The players, each alone" in page.content and b"<legend>Team" not in page.content
    )


def test_admin_pages_render(admin_client, game):
    record_hand(
        game,
        [
            {"melded_points": 120, "red_threes": 0, "went_out": "none", "hand_points": 0},
            {"melded_points": 120, "red_threes": 0, "went_out": "none", "hand_points": 0},
        ],
        number=1,
    )
    from scoring.models import Hand

    hand = Hand.objects.get()
    for name in (
        "ruleset",
        "dayrules",
        "game",
        "gameteam",
        "teamplayer",
        "hand",
        "teamhand",
        "season",
        "clubsettings",
        "ratingpoint",
    ):
        assert admin_client.get(f"/admin/scoring/{name}/").status_code == 200, name
    assert admin_client.get(f"/admin/scoring/hand/{hand.pk}/change/").status_code == 200
    assert admin_client.get(f"/admin/scoring/hand/{hand.pk}/history/").status_code == 200
    assert admin_client.get(f"/admin/scoring/game/{game.pk}/change/").status_code == 200


def test_the_admin_cannot_delete_what_the_services_keep(admin_client, game):
    """A game with hands, its hands' team rows and ratings are never deleted in the
    admin: totals and ratings would go on counting them. A game started by mistake,
    before its first hand, can go."""
    from scoring.models import Game

    record_hand(game, [BIG, SMALL], number=1)
    delete = f"/admin/scoring/game/{game.pk}/delete/"
    assert admin_client.post(delete, {"post": "yes"}).status_code == 403
    assert Game.objects.filter(pk=game.pk).exists()
    for name in ("game", "teamhand", "ratingpoint"):  # no "delete the selected" in their lists
        page = admin_client.get(f"/admin/scoring/{name}/")
        assert page.status_code == 200, name
        assert b'value="delete_selected"' not in page.content, name
    undo_last_hand(game, expected_hand_count=1)
    admin_client.post(delete, {"post": "yes"})
    assert not Game.objects.filter(pk=game.pk).exists()

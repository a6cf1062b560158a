"""The club-night benchmark's cheap parts: the hands its tables type are valid and never
end a game, what it posts is what the hand form posts and saves a hand, the scene it
writes lets the users in, and the command's arguments. No load is run here."""

from __future__ import annotations

import random

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from members.tests.factories import MemberFactory
from scoring import engine
from scoring.devtools.bench import night, pages
from scoring.devtools.bench.hands import HAND_FORM, HIGH_CARD, form_data, random_hand
from scoring.management.commands.benchmark import step_list
from scoring.models import Game
from scoring.play.forms import hand_form_data
from scoring.play.services import hands


def test_hands_are_valid_and_a_game_lasts_about_an_hour():
    """Every hand scores under the club rules, and a game reaches 5,000 after about 18
    hands (an hour at a hand every three minutes), as at a club: a busy night finishes
    games all the time."""
    rules, rng, lengths = engine.PRESETS["club"], random.Random(7), []
    for _ in range(200):
        totals, hands, over = [0, 0], 0, False
        while not over:
            outcome = engine.score_hand(rules, random_hand(rng), totals)
            assert outcome.ok, outcome
            totals, hands, over = (
                [t.score_after for t in outcome.teams],
                hands + 1,
                outcome.game_over,
            )
        lengths.append(hands)
    lengths.sort()
    assert 15 <= lengths[100] <= 21 and lengths[10] >= 8 and lengths[190] <= 32


def test_form_data_is_what_the_hand_form_posts():
    teams = random_hand(random.Random(1))
    assert form_data(teams, 4, key="k" * 22) == {**hand_form_data(teams, 4), "key": "k" * 22}
    assert form_data(teams, 4, action="preview") == hand_form_data(teams, 4, action="preview")


@pytest.mark.django_db
def test_the_scene_lets_phones_boards_and_members_in_and_a_save_records_a_hand():
    MemberFactory.create_batch(6)  # the rest of the twelve players are guests made for it
    scene = night.scene(tables=10, speed=4)
    assert len(scene["tables"]) == 3  # 10 tables, 4 times faster: 3 phones
    assert scene["hand_seconds"] == pytest.approx(180 * 3 / 10)
    assert len(scene["boards"]) == 1 and len(scene["members"]) == 1  # one club day

    phone, first = Client(), scene["tables"][0]
    assert phone.get(f"/t/{first['token']}/").status_code == 302
    data = form_data(random_hand(random.Random(2)), first["next"], key="a" * 22)
    assert phone.post(f"/games/{first['game']}/hands/new/", data).status_code == 302
    assert Game.objects.get(pk=first["game"]).hand_count == first["next"]
    preview = {**data, "action": "preview"}
    answer = phone.post(f"/games/{first['game']}/hands/preview/", preview, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200

    board = Client()
    day = scene["boards"][0]
    assert board.get(f"/board/code/{day['code']}/").status_code == 302
    assert board.get(f"/board/{day['day']}/live/").status_code == 200

    member = Client()
    member.cookies[scene["session_cookie"]] = scene["members"][0]["session"]
    assert member.get(f"/players/{scene['members'][0]['person']}/").status_code == 200
    assert member.get(scene["standings"]).status_code == 200


@pytest.mark.django_db
def test_a_phone_that_ends_a_game_starts_the_next_and_a_later_step_plays_it():
    """The requests a phone makes when its hand ends the game (the next-game page, the
    partner draw, the new game's table page) start the next game; a later step's scene
    plays each table's game in play, starting the next one where a game had just ended.
    The tables start at different points of their games (hands saved already)."""
    MemberFactory.create_batch(8)
    scene = night.scene(tables=2, speed=1)
    assert [t["next"] for t in scene["tables"]] != [1, 1]
    phone, first = Client(), scene["tables"][0]
    phone.get(f"/t/{first['token']}/")
    out = {**random_hand(random.Random(1))[0], "hand_points": 0, "went_out": "out"}
    out.update(melded_points=200, natural_canastas=1, mixed_canastas=1)
    stock = {**out, "natural_canastas": 0, "mixed_canastas": 0, "hand_points": 150}
    stock.update(melded_points=150, went_out="none")
    number = first["next"]
    while not Game.objects.get(pk=first["game"]).is_finished:  # 1,100 a hand
        data = form_data([out, stock], number, key=f"{number:022d}")
        table = phone.get(phone.post(f"/games/{first['game']}/hands/new/", data)["Location"])
        number += 1
    assert number - first["next"] <= 5
    path = f"/games/{first['game']}/next/"
    assert path in table.content.decode()
    high = HIGH_CARD.search(phone.get(path).content.decode()).group(1)
    answer = phone.post(path, {"method": "draw", "high_card": high})
    page = phone.get(answer["Location"]).content.decode()
    new = Game.objects.get(table__token=first["token"], number=2)
    assert int(HAND_FORM.search(page).group(1)) == new.pk

    other = scene["tables"][1]
    done = Game.objects.get(pk=other["game"])
    while not done.is_finished:
        hands.record_hand(done, [out, stock], number=done.hand_count + 1)
        done.refresh_from_db()
    later = night.scene(tables=2, speed=1)["tables"]
    assert [t["game"] for t in later] == [new.pk, done.table.games.get(number=2).pk]
    assert [t["next"] for t in later] == [1, 1]


@pytest.mark.django_db
def test_a_board_per_club_day_of_25_tables():
    MemberFactory.create_batch(4)
    scene = night.scene(tables=100, speed=10)  # 10 phones, each for 10 tables
    assert len(scene["tables"]) == 10
    assert len(scene["boards"]) == 4  # three phones (30 real tables) a day, then one
    assert scene["board_seconds"] == 5


def test_steps_are_table_counts():
    assert step_list("100,25") == [25, 100]
    for wrong in ("", "25,x", "0"):
        with pytest.raises(CommandError):
            step_list(wrong)


def test_the_command_refuses_to_measure_nothing():
    with pytest.raises(CommandError, match="Nothing to measure"):
        call_command("benchmark", "--no-sqlite")
    with pytest.raises(CommandError, match="--steps"):
        call_command("benchmark", "--steps", "many")


@pytest.mark.django_db
def test_the_page_cost_figure_reads_each_main_page_drawn_anew_and_cached():
    MemberFactory.create_batch(4)
    lines = pages.page_costs()
    assert [line.split(":")[0] for line in lines] == [
        f"Page cost, {name}"
        for name in ("table page", "board live", "standings", "own page", "day results")
    ]
    standings = lines[2]
    drawn, cached = (int(part.split(" queries")[0].split()[-1]) for part in standings.split(";"))
    assert cached < drawn  # a cached page reads its body, not the data


def test_the_command_refuses_impossible_clubs_and_servers():
    with pytest.raises(CommandError, match="--clubs takes 1 to 99"):
        call_command("benchmark", "--clubs", "0")
    with pytest.raises(CommandError, match="--servers 1 to 8"):
        call_command("benchmark", "--servers", "0")


@pytest.mark.django_db
def test_a_many_club_scene_splits_the_tables_and_each_club_answers_at_its_address():
    from members.clubs.scope import in_club

    clubs = night.bench_clubs(2)
    for club in clubs:
        with in_club(club):
            MemberFactory.create_batch(6)
    scene = night.clubs_scene(tables=3, speed=1, count=2)
    assert [t["prefix"] for t in scene["tables"]] == ["/club-01", "/club-01", "/club-02"]
    assert [b["prefix"] for b in scene["boards"]] == ["/club-01", "/club-02"]
    assert [m["prefix"] for m in scene["members"]] == ["/club-01", "/club-02"]

    phone, last = Client(), scene["tables"][-1]
    assert phone.get(f"/club-02/t/{last['token']}/").status_code == 302
    data = form_data(random_hand(random.Random(2)), last["next"], key="b" * 22)
    saved = phone.post(f"/club-02/games/{last['game']}/hands/new/", data)
    assert saved.status_code == 302 and saved["Location"].startswith("/club-02/")
    page = phone.get(saved["Location"])
    assert int(HAND_FORM.search(page.content.decode()).group(1)) == last["game"]
    with in_club(clubs[1]):
        assert Game.objects.get(pk=last["game"]).hand_count == last["next"]

    board, day = Client(), scene["boards"][0]
    assert board.get(f"/club-01/board/code/{day['code']}/").status_code == 302
    assert board.get(f"/club-01/board/{day['day']}/live/").status_code == 200
    member, me = Client(), scene["members"][1]
    member.cookies[scene["session_cookie"]] = me["session"]
    assert member.get(f"/club-02/players/{me['person']}/").status_code == 200
    assert me["standings"].startswith("/club-02/")
    assert member.get(me["standings"]).status_code == 200


def test_each_answer_says_its_server_cpu_and_the_benchmark_reads_it():
    """With SERVER_TIMING the outermost middleware adds the request's CPU time as a
    Server-Timing header; the benchmark's tally reads it per request kind."""
    from django.http import HttpResponse
    from django.test import RequestFactory

    from clubsite.middleware import server_cpu
    from scoring.devtools.bench.timing import Tally, cpu_ms

    def busy_view(request):
        sum(i * i for i in range(200_000))  # about 10 ms of CPU
        return HttpResponse("ok")

    answer = server_cpu(busy_view)(RequestFactory().get("/"))
    assert answer["Server-Timing"].startswith("cpu;dur=")
    assert cpu_ms(answer) > 1
    assert cpu_ms({"Server-Timing": "db;dur=3, cpu;dur=12.50"}) == 12.5
    assert cpu_ms({}) is None
    tally = Tally()
    tally.add("board live", {"Server-Timing": "cpu;dur=3.00"})
    tally.add("board live", {"Server-Timing": "cpu;dur=5.00"})
    tally.add("board live", {})  # a server without the header: not counted
    assert tally.mean("board live") == 4.0 and tally.ms["board live"] == [3.0, 5.0]
    assert "board live" in tally.lines()[1]


@pytest.mark.django_db(transaction=True)
def test_the_cpu_mode_sends_every_request_kind_and_each_is_answered(live_server):
    """``benchmark --cpu``: a phone, a board and a member of the scene send each kind
    (a save, the table page it leads to) and the server answers each as it should (a
    page 200, a save 302; anything else stops the run)."""
    from scoring.devtools.bench import kinds

    MemberFactory.create_batch(6)

    class Server:
        url = live_server.url

        def cpu_seconds(self):
            return 0.0, 0.0

    tally, whole = kinds.per_kind(Server(), rounds=2)
    assert set(whole) == set(kinds.MEASURED)
    # The test's server runs without SERVER_TIMING: said, not a crash.
    assert "without SERVER_TIMING" in kinds.capacity_lines(tally, whole)[-1]
    tally.add("preview", {"Server-Timing": "cpu;dur=10"})
    assert "tables per fully used core" in kinds.capacity_lines(tally, whole)[-1]


def test_the_command_refuses_a_cpu_share_that_is_not_a_share_of_a_cpu():
    with pytest.raises(CommandError, match="share of one CPU"):
        call_command("benchmark", "--cpu-share", "-1", "--no-sqlite")
    with pytest.raises(CommandError, match="share of one CPU"):
        call_command("benchmark", "--cpu-share", "999", "--no-sqlite")


def test_a_server_given_a_share_of_a_cpu_gets_no_more_than_that():
    """--cpu-share: two busy loops side by side for 1.5 s, one started through the
    group's prefix with 0.1 of a CPU: it runs for at most that share, while the other,
    outside any group, runs for its full turn (with the group taken away, they would run
    about the same, however busy the machine)."""
    import os
    import subprocess
    import sys

    from scoring.devtools.bench.servers import CpuGroup

    def cpu_of(process) -> float:
        _pid, _status, usage = os.wait4(process.pid, 0)
        process.returncode = 0
        return usage.ru_utime + usage.ru_stime

    group = CpuGroup(f"bench-test-{random.randrange(10**9)}", 0.1)
    loop = [
        sys.executable,
        "-c",
        "import time\nend = time.time() + 1.5\nwhile time.time() < end: pass",
    ]
    try:
        held = subprocess.Popen([*group.command(), *loop])
        free = subprocess.Popen(loop)
        held_cpu, free_cpu = cpu_of(held), cpu_of(free)
    finally:
        group.remove()
    assert held_cpu <= 0.1 * 1.5 * 1.2  # its share, and a scheduler's tick or two
    assert held_cpu >= 0.1 * 1.5 * 0.5  # and no less (on a machine not saturated)
    assert held_cpu < 0.6 * free_cpu

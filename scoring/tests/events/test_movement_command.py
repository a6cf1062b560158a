"""manage.py movement: the JSON shape, the text for a director, bad arguments refused
with a plain message and exit status 2, and no database needed."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command


def run(*args) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("movement", *args, stdout=out, stderr=err)
        code = 0
    except SystemExit as exit:
        code = exit.code
    return code, out.getvalue(), err.getvalue()


def test_mitchell_json_shape():
    code, out, _ = run("--kind", "mitchell", "--tables", "3", "--rounds", "2", "--json")
    assert code == 0
    assert json.loads(out) == {
        "kind": "mitchell",
        "tables": 3,
        "rounds": [
            {
                "round": 1,
                "tables": [
                    {"table": 1, "ns": 1, "ew": 1},
                    {"table": 2, "ns": 2, "ew": 2},
                    {"table": 3, "ns": 3, "ew": 3},
                ],
            },
            {
                "round": 2,
                "tables": [
                    {"table": 1, "ns": 1, "ew": 3},
                    {"table": 2, "ns": 2, "ew": 1},
                    {"table": 3, "ns": 3, "ew": 2},
                ],
            },
        ],
    }


def test_an_odd_number_of_pairs_gives_a_bye_as_ew_null():
    code, out, _ = run("--kind", "mitchell", "--pairs", "5", "--rounds", "3", "--json")
    data = json.loads(out)
    assert code == 0 and data["tables"] == 3
    for r in data["rounds"]:
        assert sum(t["ew"] is None for t in r["tables"]) == 1


def test_individual_json_shape_seats_players_one_to_4n_once_a_round():
    code, out, _ = run("--kind", "individual", "--tables", "3", "--rounds", "3", "--json")
    data = json.loads(out)
    assert code == 0 and data["kind"] == "individual" and data["tables"] == 3
    for r in data["rounds"]:
        assert all(set(t) == {"table", "players"} for t in r["tables"])
        seated = [p for t in r["tables"] for pair in t["players"] for p in pair]
        assert sorted(seated) == list(range(1, 13))
        assert all(len(t["players"]) == 2 and len(t["players"][0]) == 2 for t in r["tables"])


def test_swiss_prints_round_one_with_a_bye_entry():
    code, out, _ = run("--kind", "swiss", "--pairs", "5", "--rounds", "1", "--json")
    data = json.loads(out)
    assert code == 0 and [r["round"] for r in data["rounds"]] == [1]
    byes = [t["bye"] for t in data["rounds"][0]["tables"] if "bye" in t]
    assert len(byes) == 1
    seated = [p for t in data["rounds"][0]["tables"] if "ns" in t for p in (t["ns"], t["ew"])]
    assert sorted(seated + byes) == [1, 2, 3, 4, 5]


def test_text_for_a_director_without_a_screen():
    code, out, _ = run("--kind", "mitchell", "--pairs", "3", "--rounds", "2")
    assert code == 0
    assert "Round 1\n  Table 1: North-South pair 1 against East-West pair 1\n" in out
    assert "Table 2: North-South pair 2 against nobody (a bye)" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--kind", "mitchell", "--tables", "3", "--rounds", "4"], "at most 3 rounds"),
        (["--kind", "mitchell", "--tables", "0", "--rounds", "1"], "--tables must be 1 or more"),
        (["--kind", "swiss", "--tables", "4", "--rounds", "2"], "round 1 only"),
        (["--kind", "mitchell", "--rounds", "2"], "exactly one of --tables"),
        (["--kind", "individual", "--pairs", "4", "--rounds", "1"], "Use --players"),
        (["--kind", "individual", "--players", "3", "--rounds", "1"], "at least 4 players"),
    ],
)
def test_bad_arguments_are_refused_with_a_plain_message_and_exit_2(args, message):
    with pytest.raises(CommandError, match=message) as refused:
        call_command("movement", *args, stdout=io.StringIO())
    assert refused.value.returncode == 2


def manage(*args, **env) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "movement", *args],
        cwd=Path(settings.BASE_DIR),
        capture_output=True,
        text=True,
        check=False,
        env=os.environ | env,
    )


def test_from_the_shell_a_refusal_is_one_plain_line_and_exit_2():
    result = manage("--kind", "mitchell", "--tables", "3", "--rounds", "4")
    assert result.returncode == 2 and result.stdout == ""
    assert "at most 3 rounds" in result.stderr and "Traceback" not in result.stderr
    assert manage("--kind", "bridge", "--tables", "3", "--rounds", "1").returncode == 2


def test_the_command_needs_no_database():
    env = os.environ | {"DATABASE_URL": "postgres://nobody@127.0.0.1:1/nothing"}
    env.pop("REQUIRE_POSTGRES", None)
    result = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "movement",
            "--kind",
            "mitchell",
            "--tables",
            "2",
            "--rounds",
            "2",
            "--json",
        ],
        cwd=Path(settings.BASE_DIR),
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["tables"] == 2

"""The score_hand command: the scoring contract end to end (no database needed)."""

from __future__ import annotations

import copy
import io
import json
import subprocess
import sys
from pathlib import Path

from django.conf import settings
from django.core.management import call_command

from scoring.tests.samples import CONTRACT_EXAMPLE
from scoring.tests.samples import CONTRACT_EXAMPLE_TEAM_ONE as TEAM_ONE

REFUSED = {"rules": "club", "teams": [{"melded_points": 200, "went_out": "out"}, {}]}


def run(*args, stdin: str | None = None) -> tuple[int, str, str]:
    """Run the command; returns (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    options = {"stdout": out, "stderr": err}
    if stdin is not None:
        options["stdin"] = io.StringIO(stdin)
    try:
        call_command("score_hand", *args, **options)
        code = 0
    except SystemExit as exit:
        code = exit.code
    return code, out.getvalue(), err.getvalue()


def write(tmp_path: Path, data: object) -> str:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_contract_example_from_a_file(tmp_path):
    code, out, err = run(write(tmp_path, CONTRACT_EXAMPLE))
    assert code == 0 and err == ""
    result = json.loads(out)
    assert result["teams"][0] == TEAM_ONE
    assert result["teams"][1]["hand_score"] == 930
    assert result["teams"][1]["score_after"] == 3930
    assert result["game_over"] is False and result["winner"] is None
    assert out.startswith("{\n  ")  # indented for people to read


def test_contract_example_from_standard_input():
    code, out, _ = run("-", stdin=json.dumps(CONTRACT_EXAMPLE))
    assert code == 0
    assert json.loads(out)["teams"][0] == TEAM_ONE


def test_a_list_of_hands(tmp_path):
    ended = copy.deepcopy(CONTRACT_EXAMPLE)
    ended["scores_before"] = [4000, 3000]
    code, out, _ = run(write(tmp_path, [CONTRACT_EXAMPLE, ended]))
    assert code == 0
    first, second = json.loads(out)
    assert first["teams"][0] == TEAM_ONE
    assert second["teams"][0]["score_after"] == 5485
    assert second["game_over"] is True and second["winner"] == 0


def test_a_refused_hand_exits_2_and_the_others_are_still_scored(tmp_path):
    code, out, _ = run(write(tmp_path, [CONTRACT_EXAMPLE, REFUSED, CONTRACT_EXAMPLE]))
    assert code == 2
    first, refused, third = json.loads(out)
    assert first["teams"][0] == TEAM_ONE and third["teams"][0] == TEAM_ONE
    assert set(refused) == {"errors"}
    (error,) = refused["errors"]
    assert error["field"] == "teams[0].went_out"
    assert error["message"] == (
        "Team 1 went out but has no canasta; 2 are needed to go out under these rules."
    )


def test_a_single_refused_hand(tmp_path):
    code, out, _ = run(write(tmp_path, {"rules": "classic", "teams": [{"red_threes": 5}]}))
    assert code == 2
    fields = {error["field"] for error in json.loads(out)["errors"]}
    assert fields == {"teams", "teams[0].red_threes"}


def test_not_json_exits_1_with_one_line_on_stderr(tmp_path):
    path = tmp_path / "hand.json"
    path.write_text("{'rules': 'classic',", encoding="utf-8")
    code, out, err = run(str(path))
    assert code == 1 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert "not valid JSON" in err


def test_not_json_on_standard_input():
    code, out, err = run("-", stdin="scores: 1485")
    assert code == 1 and out == ""
    assert err.strip().splitlines() == [err.strip()] and "Standard input" in err


def test_missing_file_exits_1_with_a_clear_message(tmp_path):
    missing = tmp_path / "nowhere.json"
    code, out, err = run(str(missing))
    assert code == 1 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert "Cannot read" in err and "nowhere.json" in err and "No such file" in err


def test_any_json_value_is_answered(tmp_path):
    for data in (None, 3, "classic", [None, {}], {"rules": "classic", "teams": "x"}):
        code, out, err = run(write(tmp_path, data))
        assert code == 2 and err == ""
        json.loads(out)


def test_manage_py_with_standard_input():
    done = subprocess.run(
        [sys.executable, "manage.py", "score_hand", "-"],
        input=json.dumps(CONTRACT_EXAMPLE),
        capture_output=True,
        text=True,
        cwd=settings.BASE_DIR,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["teams"][0] == TEAM_ONE

    done = subprocess.run(
        [sys.executable, "manage.py", "score_hand", "-"],
        input=json.dumps([REFUSED, CONTRACT_EXAMPLE]),
        capture_output=True,
        text=True,
        cwd=settings.BASE_DIR,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2
    refused, scored = json.loads(done.stdout)
    assert "errors" in refused and scored["teams"][0] == TEAM_ONE


# -- issue 11: what the command refuses -------------------------------------------------

NOT_UTF8 = b'{"rules": "cl\xffassic", "teams": [{}, {}]}'


def test_invalid_utf8_on_standard_input_exits_1_like_non_json():
    done = subprocess.run(
        [sys.executable, "manage.py", "score_hand", "-"],
        input=NOT_UTF8,
        capture_output=True,
        cwd=settings.BASE_DIR,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1 and done.stdout == b""
    err = done.stderr.decode("utf-8")
    assert err.strip().splitlines() == [
        "Standard input is not UTF-8 text; save it as UTF-8 JSON. Nothing was scored."
    ]


def test_invalid_utf8_in_a_file_exits_1(tmp_path):
    path = tmp_path / "hand.json"
    path.write_bytes(NOT_UTF8)
    code, out, err = run(str(path))
    assert code == 1 and out == ""
    assert "is not UTF-8 text" in err and "\udcff" not in err


def test_lone_surrogates_from_a_text_stream_are_not_echoed():
    # A text stream decoding with surrogateescape hands undecodable bytes on this way.
    code, out, err = run("-", stdin='{"rules": "cl\udcffassic", "teams": [{}, {}]}')
    assert code == 1 and out == "" and "not UTF-8 text" in err


def test_scores_before_not_a_multiple_of_5_are_refused(tmp_path):
    hand = dict(CONTRACT_EXAMPLE, scores_before=[1492, 3000])
    code, out, _ = run(write(tmp_path, hand))
    assert code == 2
    (error,) = json.loads(out)["errors"]
    assert error["field"] == "scores_before[0]" and "1,490 or 1,495" in error["message"]

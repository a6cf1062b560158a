"""The benchmark's page-cost figure: what the main pages cost in-process, drawn anew
(the shared cache emptied first) and cached, in queries and in milliseconds of CPU.

Run on leagues of different sizes (``manage.py benchmark --people 60`` and ``--people
600``) it shows whether a page's cost grows with the league: the target is flat (at
most 1.2 times) for a league ten times larger.
"""

from __future__ import annotations

import statistics
import time

from django.core.cache import cache
from django.db import connection
from django.test import Client

from scoring.devtools.bench import night

ROUNDS = 7


class _Counter:
    """Counts the queries run through it (``connection.execute_wrapper``)."""

    count = 0

    def __call__(self, execute, sql, params, many, context):
        self.count += 1
        return execute(sql, params, many, context)


def _measure(client: Client, path: str, *, cold: bool, headers=None) -> tuple[int, float]:
    """(queries, median CPU ms) of ``ROUNDS`` GETs of ``path``."""
    client.get(path, headers=headers)  # the session, the settings row, the templates
    counts, times = [], []
    for _ in range(ROUNDS):
        if cold:
            cache.clear()
        queries = _Counter()
        began = time.process_time()
        with connection.execute_wrapper(queries):
            answer = client.get(path, headers=headers)
        times.append((time.process_time() - began) * 1000)
        counts.append(queries.count)
        assert answer.status_code == 200, (path, answer.status_code)
    return max(counts), statistics.median(times)


def page_costs() -> list[str]:
    """One line per page: queries and CPU ms drawn anew, then cached."""
    scene = night.scene(1, 1)
    table = scene["tables"][0]
    phone = Client()
    table_page = phone.get(f"/t/{table['token']}/")["Location"]
    board = Client()
    board.get("/board/")
    board.get(f"/board/code/{scene['boards'][0]['code']}/")
    member = Client()
    member.cookies[scene["session_cookie"]] = scene["members"][0]["session"]
    pages = {
        "table page": (phone, table_page, None),
        "board live": (board, f"/board/{scene['boards'][0]['day']}/live/", {"HX-Request": "true"}),
        "standings": (member, scene["standings"], None),
        "own page": (member, f"/players/{scene['members'][0]['person']}/", None),
        "day results": (member, "/results/", None),
    }
    lines = []
    for name, (client, path, headers) in pages.items():
        cold = _measure(client, path, cold=True, headers=headers)
        warm = _measure(client, path, cold=False, headers=headers)
        lines.append(
            f"Page cost, {name}: drawn anew {cold[0]} queries {cold[1]:.0f} ms of CPU; "
            f"cached {warm[0]} queries {warm[1]:.0f} ms"
        )
    return lines

"""The server CPU of each request kind, read from the ``Server-Timing: cpu;dur=…``
header the benchmark's servers add (``SERVER_TIMING=1``, ``clubsite.middleware.server_cpu``).
Pure Python: the Locust process imports it without Django."""

from __future__ import annotations

import json
import re
import statistics
from collections import defaultdict
from pathlib import Path

CPU = re.compile(r"(?:^|,)\s*cpu;dur=([0-9.]+)")

#: The request kinds of a club night, in the order they are printed.
KINDS = (
    "table page",
    "preview",
    "save",
    "table page after save",
    "board live",
    "standings",
    "own page",
    "me",
)


def cpu_ms(headers) -> float | None:
    """The CPU milliseconds a server said an answer cost, or None."""
    found = CPU.search(headers.get("Server-Timing", "") or "")
    return float(found.group(1)) if found else None


class Tally:
    """CPU milliseconds per request kind."""

    def __init__(self):
        self.ms: dict[str, list[float]] = defaultdict(list)

    def add(self, kind: str, headers) -> None:
        ms = cpu_ms(headers)
        if ms is not None:
            self.ms[kind].append(ms)

    def write(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.ms))

    @classmethod
    def read(cls, path: str | Path) -> Tally:
        tally = cls()
        if Path(path).exists():
            tally.ms.update(json.loads(Path(path).read_text()))
        return tally

    def lines(self) -> list[str]:
        names = [k for k in KINDS if k in self.ms] + sorted(set(self.ms) - set(KINDS))
        lines = [f"  {'server CPU per request':<24} {'count':>6} {'mean ms':>8} {'median':>7}"]
        for name in names:
            ms = self.ms[name]
            lines.append(
                f"  {name:<24} {len(ms):>6} {statistics.fmean(ms):>8.1f} "
                f"{statistics.median(ms):>7.1f}"
            )
        return lines

    def mean(self, kind: str) -> float:
        return statistics.fmean(self.ms[kind]) if self.ms.get(kind) else 0.0

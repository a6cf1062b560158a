"""Print an event's seating round by round, from the movement module alone.

    python manage.py movement --kind mitchell --tables 5 --rounds 3 [--json] [--seed S]

For checking a movement and for directors without a screen. No database is touched:
the command works with no database configured. ``--tables N`` seats 2N partnerships
(Mitchell, Swiss) or 4N players (individual); ``--pairs`` or ``--players`` give an
odd count instead (a bye, or players sitting out). Swiss pairs by results, which a
command does not have, so it prints round 1 only. Bad arguments: a plain message on
standard error and exit status 2.
"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from scoring.events.movements import MovementError, individual, mitchell, swiss_round

KINDS = ("mitchell", "swiss", "individual")


def to_json(kind: str, tables: int, rounds: list) -> dict:
    out = []
    for r in rounds:
        entries: list[dict] = []
        if kind == "individual":
            entries = [
                {"table": t.table, "players": [list(p) for p in t.players]} for t in r.tables
            ]
            entries += [{"sit_out": p} for p in r.sit_out]
        else:
            entries = [{"table": t.table, "ns": t.ns, "ew": t.ew} for t in r.tables]
            if r.bye is not None:
                entries.append({"bye": r.bye})
        out.append({"round": r.number, "tables": entries})
    return {"kind": kind, "tables": tables, "rounds": out}


def as_text(kind: str, rounds: list) -> str:
    lines = []
    for r in rounds:
        lines.append(f"Round {r.number}")
        for t in r.tables:
            if kind == "individual":
                (a, b), (c, d) = t.players
                lines.append(f"  Table {t.table}: players {a} and {b} against {c} and {d}")
            elif kind == "mitchell":
                ew = f"East-West pair {t.ew}" if t.ew is not None else "nobody (a bye)"
                lines.append(f"  Table {t.table}: North-South pair {t.ns} against {ew}")
            else:
                lines.append(f"  Table {t.table}: pair {t.ns} against pair {t.ew}")
        if getattr(r, "bye", None) is not None:
            lines.append(f"  Pair {r.bye} has a bye")
        for p in getattr(r, "sit_out", ()):
            lines.append(f"  Player {p} sits out")
        lines.append("")
    return "\n".join(lines)


class Command(BaseCommand):
    help = (
        "Print each round's seating of a Mitchell, Swiss or individual movement "
        "(no database needed). Exit status 2 on bad arguments."
    )
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("--kind", required=True, choices=KINDS, help="The movement.")
        parser.add_argument("--tables", type=int, help="Tables of four seated at round 1.")
        parser.add_argument("--pairs", type=int, help="Partnerships, instead of --tables.")
        parser.add_argument("--players", type=int, help="Players, instead of --tables.")
        parser.add_argument("--rounds", type=int, required=True, help="Rounds to print.")
        parser.add_argument("--seed", type=int, default=0, help="Seed of the draw.")
        parser.add_argument("--json", action="store_true", dest="as_json", help="Print JSON.")

    def handle(self, *args, kind, tables, pairs, players, rounds, seed, as_json, **options):
        given = [
            name
            for name, v in (("--tables", tables), ("--pairs", pairs), ("--players", players))
            if v is not None
        ]
        if len(given) != 1:
            raise CommandError("Give exactly one of --tables, --pairs or --players.", returncode=2)
        if (pairs is not None and kind == "individual") or (
            players is not None and kind != "individual"
        ):
            raise CommandError(
                "Use --players with an individual movement and --pairs with a pairs movement.",
                returncode=2,
            )
        for name, value in (
            ("--tables", tables),
            ("--pairs", pairs),
            ("--players", players),
            ("--rounds", rounds),
        ):
            if value is not None and value < 1:
                raise CommandError(f"{name} must be 1 or more.", returncode=2)
        try:
            if kind == "individual":
                count = players if players is not None else 4 * tables
                seating = individual(count, rounds, seed=seed)
            else:
                count = pairs if pairs is not None else 2 * tables
                if kind == "mitchell":
                    seating = mitchell(count, rounds)
                else:
                    if rounds != 1:
                        raise CommandError(
                            "A Swiss movement pairs by results, which this command does not "
                            "have: it prints round 1 only (use --rounds 1).",
                            returncode=2,
                        )
                    seating = [swiss_round(count, 1, seed=seed)]
        except MovementError as error:
            raise CommandError(str(error), returncode=2) from error
        table_count = len(seating[0].tables)
        if as_json:
            self.stdout.write(json.dumps(to_json(kind, table_count, seating), indent=2))
        else:
            self.stdout.write(as_text(kind, seating))

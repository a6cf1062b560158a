"""Load the demo club: people, an officer login and a member login, an open club day.

Safe to run again: rows are matched and updated, never doubled. Refuses to run in
production mode, where demo logins must never exist.
"""

import json
import socket
from datetime import date

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import CommandError
from django.db import transaction

from members.clubs.commands import ClubCommand
from members.models import ClubDay, Person, SignIn
from members.permissions import make_officer
from scoring.play.rooms import format_room_code

DEMO_PASSWORD = "canasta-demo"
DEMO_FILE = settings.BASE_DIR / "fixtures" / "demo_club.json"

#: The two hands of the demo game: one entered quickly, one card by card.
DEMO_HANDS = [
    [
        {
            "melded_points": 385,
            "natural_canastas": 1,
            "mixed_canastas": 1,
            "red_threes": 1,
            "went_out": "out",
            "hand_points": 0,
            "perfect_cut": False,
            "penalties": [],
        },
        {
            "melded_points": 140,
            "natural_canastas": 0,
            "mixed_canastas": 0,
            "red_threes": 0,
            "went_out": "none",
            "hand_points": 65,
            "perfect_cut": False,
            "penalties": [],
        },
    ],
    [
        {
            "melds": [{"rank": "K", "naturals": 5}, {"rank": "7", "naturals": 3}],
            "red_threes": 0,
            "went_out": "none",
            "hand_cards": {"A": 1, "4": 2},
            "perfect_cut": False,
            "penalties": [],
        },
        {
            "melds": [
                {"rank": "Q", "naturals": 7},
                {"rank": "9", "naturals": 5, "jokers": 1, "twos": 1},
                {"rank": "5", "naturals": 3},
            ],
            "red_threes": 2,
            "went_out": "out",
            "hand_cards": {},
            "perfect_cut": True,
            "penalties": [],
        },
    ],
]


def site_address(host: str, port) -> str:
    """The address people open: the server's host and port, and for a server listening
    on every interface (0.0.0.0) this machine's address on the local network, so a
    phone on the same Wi-Fi can open the link."""
    if host in ("0.0.0.0", "::", "[::]", ""):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
                probe.connect(("192.0.2.1", 9))  # no packet is sent: it picks the interface
                host = probe.getsockname()[0]
        except OSError:
            host = socket.gethostname()
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}:{port}"


class Command(ClubCommand):
    help = "Load the demo club (development only): people, demo logins, an open club day."

    def add_arguments(self, parser):
        parser.add_argument(
            "--host", default="127.0.0.1", help="Where `runserver` listens (for the demo link)."
        )
        parser.add_argument("--port", default="8000", help="The port `runserver` listens on.")

    def handle(self, *args, **options):
        self.site = site_address(options["host"], options["port"])
        if settings.PRODUCTION:
            raise CommandError("load_demo is for trying the site out; it never runs in production.")
        data = json.loads(DEMO_FILE.read_text())
        with transaction.atomic():
            officer = self._user("demo", "Demo", "Officer")
            make_officer(officer)
            people = {}
            for row in data["members"]:
                person, _ = Person.objects.update_or_create(
                    membership_number=row["membership_number"],
                    defaults={
                        "kind": Person.Kind.MEMBER,
                        "first_name": row["first_name"],
                        "last_name": row["last_name"],
                        "email": row["email"],
                        "phone": row["phone"],
                        "status": row["status"],
                        "joined": date.fromisoformat(row["joined"]),
                    },
                )
                people[row["membership_number"]] = person
            for row in data["guests"]:
                self._guest(row, people[row["brought_by"]])
            ann = people["1001"]
            if ann.user_id is None:
                ann.user = self._user("ann", ann.first_name, ann.last_name)
                ann.save(update_fields=["user"])
            day = self._demo_day()
            for person in list(people.values())[:12]:
                SignIn.objects.get_or_create(day=day, person=person, defaults={"card_shown": True})
            self.extend_demo(day, people)
        self.stdout.write(self.style.SUCCESS("Demo club loaded."))
        self.stdout.write(
            f"Demo officer login: demo / {DEMO_PASSWORD}   Demo member login: ann / {DEMO_PASSWORD}"
        )
        self.stdout.write("(demo only: these logins never exist in production mode)")

    def _guest(self, row, brought_by) -> Person:
        """The demo guest of ``row``: the first guest of that name (officers may have
        signed in another guest with the same name), else a new one."""
        same = Person.objects.filter(
            kind=Person.Kind.GUEST, first_name=row["first_name"], last_name=row["last_name"]
        )
        guest = same.order_by("pk").first()
        if guest is None:
            guest = Person.objects.create(
                kind=Person.Kind.GUEST,
                first_name=row["first_name"],
                last_name=row["last_name"],
                brought_by=brought_by,
            )
        return guest

    def _demo_day(self) -> ClubDay:
        """Today's demo club day: an open day with today's date (the first opened, when
        officers opened more), else the first closed one, else a new day."""
        today = ClubDay.objects.filter(date=date.today())
        day = today.filter(status=ClubDay.Status.OPEN).order_by("pk").first()
        day = day or today.order_by("pk").first()
        if day is None:
            day = ClubDay.objects.create(date=date.today(), title="Demo club day")
        if not day.is_open:
            self.stdout.write(
                self.style.WARNING(
                    f"{day} is closed, so its table links do not work: an officer can "
                    "reopen it on its page (Club days)."
                )
            )
        return day

    def extend_demo(self, day, people):
        """The scoring part of the demo: the day's rules (the club default: a preset the
        migrations made, unless the club chose another), round 1 with the 12 signed-in
        people at 3 tables of 4, and a game at table 1 with two hands, so a new user can
        try scoring straight away. Safe to run again."""
        from scoring.models import DayRules, RuleSet
        from scoring.play.services.rulesets import set_day_rules

        default = RuleSet.objects.club_default()
        if default is not None and not DayRules.objects.filter(day=day).exists():
            # The demo day shows the other team's OK (off in every preset).
            set_day_rules(day, default, confirm_hands=True)
        table1 = self._seat_round_one(day)
        self._demo_game(table1)
        self.stdout.write("Try scoring: open table 1 of today's demo club day with")
        code = format_room_code(table1.room_code)
        self.stdout.write(f"  room code {code} (type it on the front page), or the link")
        self.stdout.write(f"  {getattr(self, 'site', 'http://127.0.0.1:8000')}/t/{table1.token}/")

    def _seat_round_one(self, day):
        """Round 1: the first 12 signed-in people at 3 tables of 4; returns table 1."""
        from members.models import Round, Seat, Table

        round1, _ = Round.objects.get_or_create(day=day, number=1)
        signed_in = [s.person for s in day.signins.select_related("person").order_by("pk")][:12]
        tables = []
        for number in range(1, 4):
            table, _ = Table.objects.get_or_create(round=round1, number=number)
            tables.append(table)
        if not Seat.objects.filter(round=round1).exists():
            for k, person in enumerate(signed_in):
                Seat.objects.create(
                    round=round1, table=tables[k // 4], person=person, position=k % 4 + 1
                )
        return tables[0]

    def _demo_game(self, table1):
        """A game at table 1 with the two demo hands, unless the table has a game: the
        other team has confirmed hand 1, hand 2 waits for their OK."""
        from members.models import Seat
        from scoring.models import Game
        from scoring.play.services.confirmations import confirm_hand
        from scoring.play.services.errors import GameSetupError
        from scoring.play.services.games import start_game
        from scoring.play.services.hands import record_hand

        seats = list(
            Seat.objects.filter(table=table1).select_related("person").order_by("position")
        )
        if len(seats) == 4 and not Game.objects.filter(table=table1).exists():
            a, b, c, d = (s.person for s in seats)
            try:
                game = start_game(table1, [[a, c], [b, d]], score_keeper=a, first_dealer=a)
            except GameSetupError as refusal:  # e.g. officers removed the rule sets
                self.stdout.write(self.style.WARNING(f"No demo game: {refusal.message}"))
                return
            hands = [
                record_hand(game, inputs, number=number, via="Demo data")
                for number, inputs in enumerate(DEMO_HANDS, start=1)
            ]
            if hasattr(hands[0], "confirmation"):
                confirm_hand(hands[0], b, expected_version=hands[0].version, via="Demo data")

    def _user(self, username, first, last):
        user, created = get_user_model().objects.get_or_create(
            username=username, defaults={"first_name": first, "last_name": last}
        )
        if created or not user.check_password(DEMO_PASSWORD):
            user.set_password(DEMO_PASSWORD)
            user.save()
        return user

"""Everything that changes people, club days, sign-ins and seating: every write of the app.

Views parse and check permissions, then call one function here. Each function checks
its input and raises a `MembersError` subclass with a message meant for the person at
the door or the officer (what happened, what to do), never a stack trace.

The rooms:

- ``errors``: `MembersError` and its kinds (`SignInRefused`, `GuestNameTaken`,
  `ConversionRefused`, `MergeRefused`, `LoginRefused`, `SeatingRefused`, `DayRefused`).
- ``days``: open, close and reopen a club day.
- ``door``: sign people in, add a guest on the spot, undo a sign-in.
- ``people``: a guest becomes a member; members' logins and temporary passwords.
- ``merge``: two records of the same person become one, across every app.
- ``seating``: draw a round onto tables, start it, move and swap people, read the seats.
- ``clubs``: move a club to another slug (its old one redirects).

Other apps import the names below from here (``members.services.draw_round``); code
inside members imports them from their room.
"""

from members.services.days import close_day, open_day, reopen_day
from members.services.door import add_guest, sign_in, undo_sign_in
from members.services.errors import (
    ConversionRefused,
    DayRefused,
    GuestNameTaken,
    LoginRefused,
    MembersError,
    MergeRefused,
    SeatingRefused,
    SignInRefused,
)
from members.services.merge import merge_people, merge_preview
from members.services.people import (
    convert_guest_to_member,
    create_login,
    reset_password,
    save_person,
)
from members.services.seating import (
    MAX_AT_TABLE,
    DrawResult,
    current_round,
    draw_round,
    move_seat,
    not_seated,
    seat_map,
    signed_in_ids,
    start_round,
    swap_seats,
)

__all__ = [
    "MAX_AT_TABLE",
    "ConversionRefused",
    "DayRefused",
    "DrawResult",
    "GuestNameTaken",
    "LoginRefused",
    "MembersError",
    "MergeRefused",
    "SeatingRefused",
    "SignInRefused",
    "add_guest",
    "close_day",
    "convert_guest_to_member",
    "create_login",
    "current_round",
    "draw_round",
    "merge_people",
    "merge_preview",
    "move_seat",
    "not_seated",
    "open_day",
    "reopen_day",
    "reset_password",
    "save_person",
    "seat_map",
    "sign_in",
    "signed_in_ids",
    "start_round",
    "swap_seats",
    "undo_sign_in",
]

"""The refusals of the members services, one class per kind of request.

Each carries a message meant for the person at the door or the officer (what happened,
what to do), shown as it is; views catch them by kind.
"""

from __future__ import annotations

from members.models import Person


class MembersError(Exception):
    """A refusal with a message to show as it is."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class SignInRefused(MembersError):
    pass


class GuestNameTaken(SignInRefused):
    """A guest of that name is already on file: sign that one in, or say it's another."""

    def __init__(self, message: str, existing: list[Person]):
        super().__init__(message)
        self.existing = existing


class ConversionRefused(MembersError):
    pass


class MergeRefused(MembersError):
    pass


class LoginRefused(MembersError):
    pass


class SeatingRefused(MembersError):
    pass


class DayRefused(MembersError):
    pass

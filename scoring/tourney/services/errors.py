"""The refusals of the event services, with a message to show as it is."""

from __future__ import annotations


class EventRefused(Exception):
    """Not done; ``message`` says why and what to change."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class AlreadyDone(EventRefused):
    """The same form was sent again (a double tap, a reload): done once already."""

"""The bookings app's refusals: a message for the member or officer, shown as it is."""

from members.services.errors import MembersError


class BookingRefused(MembersError):
    """A booking, a cancellation or a change that cannot be made; the message says why
    and what to do."""


class NewsRefused(MembersError):
    """An announcement, a call to substitutes or a partner message that cannot be sent."""

"""Reading numbers that arrive as text in a request (query strings, hidden fields)."""


def whole_number(raw, *, digits: int = 9, default=None):
    """``raw`` as a non-negative whole number when it is 1 to ``digits`` ASCII digits,
    else ``default``. ``str.isdigit()`` alone also accepts "²" or "٣", which ``int()``
    refuses, and any length, which ``int()`` may refuse too: a request must never turn
    such text into an error page."""
    if isinstance(raw, str) and 0 < len(raw) <= digits and raw.isascii() and raw.isdigit():
        return int(raw)
    return default

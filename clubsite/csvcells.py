"""CSV cells that spreadsheet programs will not run as formulas, and back.

Our CSV downloads put an apostrophe before text starting with ``= + - @``, a tab or a
carriage return (what spreadsheets read as a formula); the roster importer takes it off
again, so a downloaded list imports unchanged."""

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def escape_cell(value):
    """``value`` for a CSV cell: None becomes empty; formula-like text gets a leading
    apostrophe."""
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def unescape_cell(text: str) -> str:
    """The text :func:`escape_cell` was given (other text unchanged)."""
    if text[:1] == "'" and text[1:2] and text[1:].startswith(FORMULA_STARTS):
        return text[1:]
    return text

"""Filters of the site's logging (``LOGGING`` in the settings).

Django logs a refused request (403, a 400 for a suspicious one) with the exception that
refused it, so each would write a whole traceback to the error log, and a real error
(a 500) would drown among them. :class:`ClientErrorsInOneLine` keeps such a record but
drops its traceback: one line saying the status, the method and the address. A 500
keeps its traceback.
"""

from __future__ import annotations

import logging


class ClientErrorsInOneLine(logging.Filter):
    """A record of a request answered with a 4xx: logged, without its traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if isinstance(status, int) and 400 <= status < 500 and record.exc_info:
            record.exc_info = None
            record.exc_text = None
        return True

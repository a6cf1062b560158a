"""The results cache: the results version and the cached bodies of the results pages.

The results pages keep their drawn bodies in the cache under the current results
version. The version goes up only here, through :func:`results_changed`, whenever what
those pages show may have changed (a game finished, a finished game corrected or
re-opened, a person merged, seasons or ranking settings edited), so saving a hand of a
game still in play leaves every cached page valid.
"""

from scoring.models import ResultsVersion


def results_changed() -> None:
    """What the results pages show may have changed: the version goes up, so their
    cached bodies are no longer used. Inside a transaction the new number is seen only
    once it commits."""
    ResultsVersion.bump()

"""Signals other apps may listen to (members never imports them).

`person_merged` is sent after a merge has been committed, with `kept`, `removed` and
`record` (the MergeRecord): e.g. `scoring` can rebuild a player's ratings and totals.
"""

from django.dispatch import Signal

person_merged = Signal()

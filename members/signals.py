"""Signals other apps may listen to (members never imports them).

`day_closing` asks the other apps what closing a club day would stop (see below).

`person_merged` is sent after a merge has been committed, with `kept`, `removed` and
`record` (the MergeRecord): e.g. `scoring` can rebuild a player's ratings and totals.
"""

from django.dispatch import Signal

person_merged = Signal()

# `day_closing` is sent (with `day`) when an officer is asked to confirm closing a club
# day. Each receiver returns a list of (sentence, link) pairs about play still going on
# that closing would stop: e.g. `scoring` lists the games still in play.
day_closing = Signal()

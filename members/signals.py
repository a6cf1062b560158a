"""Signals other apps may listen to (members never imports them).

`day_closing` asks the other apps what closing a club day would stop, and `day_closed`
tells them the day closes, with the officer's answers (see below).

`club_created` is sent with `club` when a club is made (``create_club``) or imported
(``import_club``), inside its scope (and, when made, inside the transaction that made
it): `scoring` makes the club's settings and results version if they are missing.

`person_merged` is sent after a merge has been committed, with `kept`, `removed` and
`record` (the MergeRecord): e.g. `scoring` can rebuild a player's ratings and totals.
"""

from django.dispatch import Signal

club_created = Signal()
person_merged = Signal()

# `day_closing` is sent (with `day`) when an officer is asked to confirm closing a club
# day. Each receiver returns a list of dicts about play still going on that closing
# would stop: e.g. `scoring` lists the games still in play. Each has "text" (a
# sentence), "url" (a link, or ""), and may ask the officer to choose: "name" (the form
# field) and "choices", a list of (value, label, what it does); the page checks none,
# so the officer answers each one (an answer not sent counts as the last choice).
day_closing = Signal()

# `day_closed` is sent (with `day` and `choices`, the officer's answers to the closing
# page keyed by field name) inside the transaction that closes the day. Receivers act
# on the answers and return a list of sentences saying what they did.
day_closed = Signal()

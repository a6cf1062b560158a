"""Events on a club day (issue 35), the Django side of :mod:`scoring.events`.

An officer turns a club day into an event: rounds with a clock, a movement that says
who sits where each round (Mitchell, Swiss, individual) and a fair ranking. The pure
parts (movements, rankings, the clock's arithmetic in :mod:`.timing`) know nothing of
Django; the rows are here (:mod:`.models`), the writes in :mod:`.services`, the pages
in :mod:`.views`. Its own app (label ``tourney``) with its own migrations.
"""

"""Pages for people, club days, the door and seating. Thin: parse, check, call a
service, render. Every page but "My page" is for officers.

The rooms (``members/urls.py`` names each view from its room):

- ``days``: the list of club days, opening one, one day's page (close, reopen).
- ``door``: signing people in at the door, guests, undoing a sign-in (htmx or not).
- ``seating``: the seating page, drawing and starting rounds, moves, swaps, the screen.
- ``people``: the people list and CSV, a person's page, add, edit, make member, login,
  merging two records.
- ``roster``: the roster import (upload, preview, confirm).
- ``jobs``: one background job (a roster import applied, a rebuild, a backup) and a
  backup's file.
- ``me``: a member's own page.
- ``common``: the club day of a URL, a form's first error as a message.
"""

"""A realistic, reproducible club history, for trying the site out and for the benchmark.

The generator writes people (members, a few lapsed, and guests brought by members),
club days (two a week, closed once played), sign-ins at the door, one seated round per
day, the day's rule set, and at every table two games of four players — the second with
new partnerships drawn the club's way (``partnerships.club_partnerships``). Every game is
started and every hand is scored through :mod:`scoring.play.services` (the only code
that writes scores), with plausible inputs from :mod:`scoring.devtools.simulate`, so
every stored hand is one the engine accepts and every total is the services' own.

One ``random.Random(seed)`` drives everything and no value depends on today's date or
the clock (times are derived from the day's date), so the same options give the same
league, row for row — apart from the automatic "created at" stamps of rows and history.
Each club day is written in one transaction.

The rooms:

- :mod:`~scoring.devtools.league.options`: ``LeagueOptions`` (and their checks),
  ``LeagueSummary``, ``LeagueError``, ``DEFAULT_START``, ``GENERATOR_VERSION``;
- :mod:`~scoring.devtools.league.generate`: ``generate_league`` (the entry point, year
  by year) and ``league_rule_set``;
- :mod:`~scoring.devtools.league.dates`: the calendar, pure: which dates are club days,
  their titles, season names;
- :mod:`~scoring.devtools.league.people`: members and guests (written with
  ``bulk_create_with_history``) and who comes on a given day;
- :mod:`~scoring.devtools.league.days`: ``DayWriter``, one club day in one transaction:
  sign-ins, the round drawn by ``members.draw.draw`` in the order
  ``members.services.draw_round`` uses (so its stored seed replays its seating),
  tables and seats with ``bulk_create``;
- :mod:`~scoring.devtools.league.games`: the two games at a table, written by
  ``hands.record_played_game`` (the same rows as ``hands.record_hand`` hand by
  hand, which ``hand_by_hand=True`` uses; a test compares the two).
"""

"""Results pages, one module per page: :mod:`.standings` (standings, partnerships, the
standings settings), :mod:`.days`, :mod:`.records`, :mod:`.player`, :mod:`.seasons` and
:mod:`.exports` (the league workbook); :mod:`.common` holds what they share.

Who sees what:

- Standings, partnerships, day results and records: the club's own people (its
  officers, and its members and guests with a login); visitors too when an officer
  switches on public standings (``ClubSettings.public_standings``). Visitors never get
  links to players' pages. A login of other clubs only is a visitor here
  (:func:`members.permissions.belongs_to_club`): refused while the standings are not
  public.
- A player's page (``/players/<id>/``): the club's own people — the member themself,
  other members (it shows only the game record: results, partners, opponents, charts,
  bests) and officers. Never visitors or other clubs' logins, even with public
  standings on. Contact details (email,
  phone, notes) are never on this page, for anyone: members see their own on their
  profile (members:me) and officers on the people pages.
- Seasons, the standings settings and the league workbook: officers only.

Every listing is a django-tables2 table with a CSV download (``?_export=csv``); the
number of SQL queries of each page does not grow with the history. The bodies of the
results pages are cached (:func:`scoring.results.cache.cached_body`; the standings'
drawn parts with :func:`~scoring.results.cache.cached_parts`, read with the settings and
the stamp in one query) under the page address and a data fingerprint: for the pages of
finished games (standings, records, players' pages) the results stamp, which changes
when a game finishes or a finished game changes; for the day pages the data stamp, which
changes with every hand. A repeat view skips the aggregates and the table rendering.
"""

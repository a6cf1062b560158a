"""The club-night benchmark of ``manage.py benchmark`` (``make bench``).

- :mod:`~scoring.devtools.bench.hands`: the hands a table types (pure, no Django);
- :mod:`~scoring.devtools.bench.locustfile`: the club night for Locust: table phones,
  room boards, members reading results;
- :mod:`~scoring.devtools.bench.night`: the throwaway database's side: the league, the
  open day with N tables playing, the scene file Locust reads, the workbook and engine
  figures;
- :mod:`~scoring.devtools.bench.queries`: the data queries of a captured request (for
  the query-count tests).
"""

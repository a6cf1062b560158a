"""The measurements of ``manage.py benchmark`` (the command itself only runs processes
and prints the table).

Everything here runs inside the benchmark's child process, whose database is a
throwaway one (see the command): it builds or reuses a generated league
(:mod:`scoring.devtools.league`), adds an open club day with a game in progress, then
measures the pages, the league workbook of one season and the engine. No assertion
about speed lives here: the numbers are a report.

The rooms:

- :mod:`~scoring.devtools.bench.prepare`: what the measurements need in the database:
  the league (built once, reused while its marker file matches), an officer, the latest
  season with games, the busiest member, a game in progress; ``BenchError``;
- :mod:`~scoring.devtools.bench.pages`: the pages, in-process with
  ``django.test.Client`` as an officer: median and 95th percentile of ``repeat``
  requests after a warm-up, and the SQL queries of one request; every page is compared
  with the minimal view (``scoring.devtools.views.minimal``, routed by
  ``scoring.devtools.urls``). The standings and a member's page are also measured
  "cache cold" (the cache emptied, untimed, before each request: the page just after a
  game finishes); the cold query counts show whether a page's queries grow with the
  history;
- :mod:`~scoring.devtools.bench.measure`: the workbook (time, peak RSS rise, then
  Python's peak allocation under ``tracemalloc`` in a second run), the engine
  (team-hands scored per second), and ``measure_all``, which runs everything;
- :mod:`~scoring.devtools.bench.report`: the targets, the table's rows with their
  PASS/MISS verdicts, the table as text and the summary line.
"""

"""Developer tooling: the league generator, the simulator and the benchmark.

Never imported by production code; only the tooling management commands
(``generate_league``, ``benchmark``) and tests use it (a test parses every module to
keep it so).

- :mod:`~scoring.devtools.simulate`: plausible random hands, pure (no database);
- :mod:`~scoring.devtools.league`: a realistic, reproducible club history written
  through the real services (options, dates, people, days, games, the entry point);
- :mod:`~scoring.devtools.bench`: the club-night benchmark of ``manage.py benchmark``
  (Locust users, the scene they play, the workbook and engine figures).
"""

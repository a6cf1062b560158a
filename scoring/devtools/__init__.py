"""Developer tooling: the league generator, the simulator and the benchmark.

Never imported by production code; only the tooling management commands
(``generate_league``, ``benchmark``) and tests use it (a test parses every module to
keep it so).

- :mod:`~scoring.devtools.simulate`: plausible random hands, pure (no database);
- :mod:`~scoring.devtools.league`: a realistic, reproducible club history written
  through the real services (options, dates, people, days, games, the entry point);
- :mod:`~scoring.devtools.bench`: the measurements of ``manage.py benchmark`` (the
  league and scene it needs, the pages, the workbook and the engine, the report);
- :mod:`~scoring.devtools.urls` and :mod:`~scoring.devtools.views`: the site's URLs plus
  the minimal view every page is measured against, for the benchmark only.
"""

"""The site's own system checks (Django's check framework), registered in
:meth:`clubsite.apps.ClubsiteConfig.ready`.

**The compiled catalogs.** The translations are kept as ``.po`` files in git; Django
reads the compiled ``.mo`` files beside them, which ``manage.py compile_catalogs`` writes
and git does not keep. A deployment that forgets to compile them (or to compile them
again after an upgrade changed a ``.po``) serves a Spanish or Portuguese club mostly in
English, and nothing else would say so. So a missing ``.mo``, or one older than its
``.po``, is:

- an **error** (``clubsite.E010``) of ``manage.py check --deploy``, which the deployment
  recipe runs (README, docs/deploy.md) and CI runs on the production settings;
- a **warning** (``clubsite.W010``) of every other check: ``runserver`` and every
  management command that checks the site at start, and a line in the log when a
  gunicorn worker loads the site (``clubsite/wsgi.py``), which runs no checks.
"""

from __future__ import annotations

import logging

from django.core import checks

logger = logging.getLogger("clubsite")

HINT = "Run: python manage.py compile_catalogs"


def catalog_problems() -> list[str]:
    """What is wrong with the compiled catalogs, one sentence per catalog."""
    from clubsite.management.commands.compile_catalogs import catalogs

    problems = []
    for po in catalogs():
        mo = po.with_suffix(".mo")
        if not mo.exists():
            problems.append(
                f"The translations in {po} are not compiled ({mo.name} is missing): pages "
                f"in {po.parent.parent.name} would be shown in English."
            )
        elif mo.stat().st_mtime < po.stat().st_mtime:
            problems.append(
                f"The compiled translations {mo} are older than {po.name}: pages in "
                f"{po.parent.parent.name} would show the old words, or English."
            )
    return problems


def catalogs_compiled(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    """``check --deploy``: a missing or stale catalog is an error."""
    return [checks.Error(p, hint=HINT, id="clubsite.E010") for p in catalog_problems()]


def catalogs_compiled_at_start(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    """Every other check (runserver, commands): a missing or stale catalog is a warning."""
    return [checks.Warning(p, hint=HINT, id="clubsite.W010") for p in catalog_problems()]


def register() -> None:
    checks.register(catalogs_compiled, checks.Tags.translation, deploy=True)
    checks.register(catalogs_compiled_at_start, checks.Tags.translation)


def log_catalog_problems() -> None:
    """At a gunicorn worker's start: each problem as a warning in the log."""
    for problem in catalog_problems():
        logger.warning("%s %s.", problem, HINT)

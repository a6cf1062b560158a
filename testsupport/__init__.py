"""What the tests share besides fixtures (those are in the root ``conftest.py``): where
the system Chromium is, whether this is a CI run, and the browser journeys' helpers
(:mod:`testsupport.browser`). Never imported by the site itself."""

import os
import shutil

CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser")

MISSING_CHROMIUM = (
    "system Chromium not found (/usr/bin/chromium); install it with "
    "'apt-get install -y chromium' to run the browser journeys"
)


def chromium_path():
    for candidate in CHROMIUM_CANDIDATES:
        if os.path.exists(candidate):
            return candidate
    return shutil.which("chromium")


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def restore_migration_data():
    """Make again the rows the data migrations wrote (the rule-set presets, the first
    club and its settings, by the migrations' own code), which a flush takes away: a
    transactional test starts from the database the previous one flushed. (Django's
    ``serialized_rollback`` would restore them, but not in the browser journeys: under
    Playwright's event loop the test's connection is another object than the one the
    test database was read with.)"""
    from importlib import import_module

    from django.apps import apps
    from django_scopes import scopes_disabled

    from members.clubs.scope import in_club

    with scopes_disabled():
        import_module("scoring.migrations.0002_presets").create_presets(apps, None)
        club = import_module("members.migrations.0009_club_data").create_first_club(apps)
    with in_club(club):  # the settings' receivers move the club's results version
        import_module("scoring.migrations.0019_club_data").first_club_settings(apps, club)


def first_club():
    """The site's first club: the one the migrations made, the tests' club."""
    from members.models import Club

    return Club.objects.order_by("pk").first()


def run_worker(max_tasks: int | None = None) -> None:
    """Run the database queue's own worker (``manage.py db_worker``) over the tasks
    waiting now, then return: all of them, or only the first ``max_tasks`` (a worker
    stopped part-way). The signal handlers it installs are put back afterwards."""
    import signal

    from django.core.management import call_command

    handlers = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGQUIT)}
    args = ["--batch", "--no-reload", "--no-startup-delay", "--interval", "0"]
    if max_tasks is not None:
        args += ["--max-tasks", str(max_tasks)]
    try:
        call_command("db_worker", *args, verbosity=0)
    finally:
        for sig, handler in handlers.items():
            signal.signal(sig, handler)

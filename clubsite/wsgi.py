"""WSGI entry point: `gunicorn clubsite.wsgi`.

Each gunicorn worker imports this module before it takes any request, so what Django
would otherwise leave to a worker's first request is done here (:func:`warm_up`):
every view imported (the URLconf, and openpyxl, csv, charts with them), the address
lookups filled, and every template of the site compiled. Without it, the first request
each worker answered after a restart waited about a second for that (the club-night
benchmark's "first request after a restart" figure).
"""

import os
from pathlib import Path

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.settings")

application = get_wsgi_application()


def warm_up() -> None:
    """Import every view and compile every template of the site, once per process."""
    from django.conf import settings
    from django.template.loader import get_template
    from django.urls import reverse

    # The URLconf imports every view; one address of each namespace fills its lookups.
    for name in ("home", "members:days", "scoring:standings"):
        reverse(name)
    for folder in settings.TEMPLATES[0]["DIRS"]:
        for path in sorted(Path(folder).rglob("*.html")):
            get_template(path.relative_to(folder).as_posix())


warm_up()

# gunicorn runs no system checks: a catalog not compiled is said in the log.
from clubsite.checks import log_catalog_problems  # noqa: E402

log_catalog_problems()

"""The WSGI application ``manage.py benchmark`` serves with gunicorn: the site, plus the
minimal view every page is compared with (``scoring.devtools.urls``). Never used by the
site itself."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.settings")
application = get_wsgi_application()

from django.conf import settings  # noqa: E402  (after the settings are set up)

settings.ROOT_URLCONF = "scoring.devtools.urls"

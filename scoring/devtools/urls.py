"""URLs for `manage.py benchmark` only: the site's URLs plus the yardstick view.

Used through ``override_settings(ROOT_URLCONF="scoring.devtools.urls")`` inside the
benchmark, never by the site itself.
"""

from django.urls import path

from clubsite.urls import urlpatterns as site_urlpatterns
from scoring.devtools.views import minimal

urlpatterns = [
    *site_urlpatterns,
    path("bench/minimal/", minimal, name="bench_minimal"),
]

"""Several workers agree (issue #14): a results page drawn by one process is served
from the shared cache by another (a second gunicorn worker, or the same site after a
restart) without drawing it again; and in production the CSS and JavaScript have
hashed names and are cached by browsers for a year."""

import json
import uuid

from clubsite.tests.test_shared_cache import _manage

DRAW = """
from django.test import Client
from django.contrib.auth import get_user_model
from scoring.results.views import standings as view
drawn = []
real = view.standings
def counting(*a, **k):
    drawn.append(1)
    return real(*a, **k)
view.standings = counting
client = Client()
client.force_login(get_user_model().objects.get(username="bench-officer"))
from scoring.models import Season
season = Season.objects.with_scopes_disabled().order_by("-start").first()
response = client.get(f"/standings/?season={season.pk}")
assert response.status_code == 200, response.status_code
print(len(drawn))
"""

OFFICER = (
    "from django.contrib.auth import get_user_model; "
    "from members.clubs.commands import command_club; "
    "from members.permissions import make_officer; "
    "user = get_user_model().objects.create_user('bench-officer'); "
    "make_officer(user, command_club()); "
    "from scoring.models import Season; "
    "print(Season.objects.with_scopes_disabled().count())"
)


def test_a_page_one_worker_drew_is_not_drawn_again_by_another(tmp_path):
    env = {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'league.sqlite3'}",
        "CACHE_KEY_PREFIX": f"test-{uuid.uuid4().hex[:8]}",
    }
    _manage("migrate", "--noinput", "-v", "0", **env)
    _manage(
        "generate_league",
        *("--people", "16", "--years", "1", "--days-per-year", "2", "--quiet"),
        *("--tables-min", "2", "--tables-max", "2"),
        **env,
    )
    assert int(_manage("shell", "-c", OFFICER, **env)) >= 1
    assert _manage("shell", "-c", DRAW, **env) == "1"  # the first worker draws it
    assert _manage("shell", "-c", DRAW, **env) == "0"  # another one reads it
    assert _manage("shell", "-c", DRAW, **env) == "0"


STATIC = """
import json
from django.core.management import call_command
from django.templatetags.static import static
from django.test import Client
call_command("collectstatic", "--noinput", verbosity=0)
answers = {}
for name in ("css/site.css", "js/htmx.min.js"):
    url = static(name)
    response = Client().get(url, secure=True)
    answers[name] = [url, response.status_code, response.headers.get("Cache-Control", "")]
print(json.dumps(answers))
"""


def test_in_production_static_files_have_hashed_names_and_a_long_cache(tmp_path):
    env = {
        "DJANGO_ENV": "production",
        "SECRET_KEY": "x" * 20 + uuid.uuid4().hex + uuid.uuid4().hex,
        "ALLOWED_HOSTS": "testserver",
        "STATIC_ROOT": str(tmp_path / "static"),
        "DATABASE_URL": f"sqlite:///{tmp_path / 'unused.sqlite3'}",
    }
    answers = json.loads(_manage("shell", "-c", STATIC, **env))
    for name, (url, status, cache_control) in answers.items():
        stem = name.rsplit(".", 1)[0]
        assert url != f"/static/{name}" and url.startswith(f"/static/{stem}."), url
        assert status == 200, name
        max_age = int(cache_control.split("max-age=")[1].split(",")[0])
        assert max_age >= 365 * 24 * 3600 and "immutable" in cache_control, cache_control

"""The WSGI module does a worker's first-request work when it is imported: every view
imported and every template of the site compiled (a template that does not compile
fails here, not on a member's first visit)."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHECK = """
import json, sys
from django.template import engines
import clubsite.wsgi
cached = engines["django"].engine.template_loaders[0].get_template_cache
print(json.dumps({"views": "scoring.results.views.exports" in sys.modules,
                  "openpyxl": "openpyxl" in sys.modules, "templates": sorted(cached)}))
"""


def test_a_worker_imports_every_view_and_compiles_every_template_before_its_first_request():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "clubsite.settings"}
    run = subprocess.run(
        [sys.executable, "-c", CHECK], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    found = json.loads(run.stdout.splitlines()[-1])
    assert found["views"] and found["openpyxl"]
    site = {p.relative_to(ROOT / "templates").as_posix() for p in ROOT.glob("templates/**/*.html")}
    assert site <= set(found["templates"]) and "results/_player_body.html" in site

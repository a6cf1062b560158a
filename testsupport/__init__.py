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

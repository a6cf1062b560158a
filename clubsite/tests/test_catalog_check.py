"""A deployment cannot forget the catalogs: a translation catalog not compiled, or
compiled before its ``.po`` last changed, fails ``check --deploy`` (clubsite.E010) and is
a warning of the start-up checks (clubsite.W010) and in a gunicorn worker's log."""

from __future__ import annotations

import logging
import os
import shutil
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError

from clubsite.checks import log_catalog_problems

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def locale(tmp_path, settings):
    """A copy of the site's Spanish catalog, compiled, as the only catalog."""
    folder = tmp_path / "locale" / "es" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    shutil.copy(ROOT / "locale" / "es" / "LC_MESSAGES" / "django.po", folder / "django.po")
    settings.LOCALE_PATHS = [tmp_path / "locale"]
    call_command("compile_catalogs", verbosity=0)
    return folder


def _deploy_check():
    call_command("check", deploy=True, tags=["translation"])


def test_fresh_catalogs_pass(locale, caplog):
    _deploy_check()
    with caplog.at_level(logging.WARNING, logger="clubsite"):
        log_catalog_problems()
    assert not caplog.records


def test_a_missing_catalog_fails_the_deploy_check_and_warns_at_start(locale, caplog):
    (locale / "django.mo").unlink()
    with pytest.raises(SystemCheckError, match=r"clubsite\.E010.*django.mo is missing"):
        _deploy_check()
    with pytest.raises(SystemCheckError, match=r"clubsite\.W010"):
        call_command("check", tags=["translation"], fail_level="WARNING")
    with caplog.at_level(logging.WARNING, logger="clubsite"):
        log_catalog_problems()
    assert "compile_catalogs" in caplog.text and "es" in caplog.text


def test_a_catalog_older_than_its_po_fails_the_deploy_check(locale):
    po, mo = locale / "django.po", locale / "django.mo"
    os.utime(mo, (po.stat().st_atime, po.stat().st_mtime - 60))
    with pytest.raises(SystemCheckError, match=r"clubsite\.E010.*older than django.po"):
        _deploy_check()
    call_command("compile_catalogs", verbosity=0)
    _deploy_check()


def _section(text: str, heading: str) -> str:
    start = text.index(heading + "\n")
    rest = text[start + len(heading) + 1 :]
    ends = [i for i in (rest.find("\n## "), rest.find("\n### ")) if i >= 0]
    return rest[: min(ends)] if ends else rest


@pytest.mark.parametrize(
    "document, heading",
    [
        ("README.md", "## Deployment in short"),
        ("README.md", "### Upgrading"),
        ("docs/deploy.md", "## Install"),
        ("docs/deploy.md", "## Upgrading"),
    ],
)
def test_the_deployment_recipes_compile_the_catalogs(document, heading):
    assert "compile_catalogs" in _section((ROOT / document).read_text(), heading)

"""A refused request is one line in the log; a server error keeps its traceback
(``LOGGING``, clubsite.logfilters)."""

from __future__ import annotations

import logging

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def _request_records(caplog):
    return [r for r in caplog.records if r.name.startswith(("django.request", "django.security"))]


def test_a_403_is_logged_as_one_line_without_a_traceback(member_client, caplog):
    with caplog.at_level(logging.WARNING):
        assert member_client.get("/people/").status_code == 403
    (record,) = _request_records(caplog)
    assert record.status_code == 403
    assert record.exc_info is None
    assert "Traceback" not in caplog.text
    assert "Forbidden" in record.getMessage()


def test_a_suspicious_request_reaches_the_log_without_a_traceback(client, caplog):
    """django.security's records (here a host not allowed, 400) go through the
    handler's filter: the line is written, the traceback is not."""
    handler = next(
        h
        for h in logging.getLogger().handlers
        if any(type(f).__name__ == "ClientErrorsInOneLine" for f in h.filters)
    )
    with caplog.at_level(logging.WARNING):
        assert client.get("/", HTTP_HOST="not-ours.example").status_code == 400
    (record,) = _request_records(caplog)
    assert record.name == "django.security.DisallowedHost"
    assert handler.filter(record)
    assert "Traceback" not in handler.format(record)
    assert "not-ours.example" in handler.format(record)


def test_a_500_keeps_its_traceback(db, caplog, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("the front page broke")

    monkeypatch.setattr("members.clubs.front.render", broken)
    client = Client(raise_request_exception=False)
    with caplog.at_level(logging.WARNING):
        assert client.get("/").status_code == 500
    (record,) = _request_records(caplog)
    assert record.status_code == 500
    assert record.exc_info is not None and record.exc_info[0] is RuntimeError
    assert "Traceback" in caplog.text and "the front page broke" in caplog.text

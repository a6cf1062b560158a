"""The client's address (issue 22): REMOTE_ADDR when no proxy is configured, whatever
X-Forwarded-For a client sends; behind TRUSTED_PROXY_COUNT proxies, the entry the
nearest proxy wrote, never one a client put further left. django-axes reads the same
address (``AXES_CLIENT_IP_CALLABLE``), so a login lockout is keyed on the client behind
the proxy, not on the proxy."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from axes.helpers import get_client_ip_address
from axes.models import AccessAttempt
from django.test import Client, RequestFactory
from django.urls import reverse

from clubsite.devices import client_address, client_ip

ROOT = Path(__file__).resolve().parents[2]
BEHIND_ONE_PROXY = {
    "AXES_IPWARE_META_PRECEDENCE_ORDER": ("HTTP_X_FORWARDED_FOR",),
    "AXES_IPWARE_PROXY_COUNT": 0,
}


def request(**meta):
    return RequestFactory().get("/", **meta)


def both(req):
    """The address as the site and as django-axes read it (they must agree)."""
    return client_ip(req), get_client_ip_address(req)


def test_without_a_proxy_a_clients_forwarded_for_is_ignored(settings):
    assert settings.TRUSTED_PROXY_COUNT == 0  # the default
    req = request(REMOTE_ADDR="203.0.113.5", HTTP_X_FORWARDED_FOR="198.51.100.1")
    assert both(req) == ("203.0.113.5", "203.0.113.5")
    req = request(REMOTE_ADDR="203.0.113.5", HTTP_X_FORWARDED_FOR="10.0.0.1, 198.51.100.1")
    assert both(req) == ("203.0.113.5", "203.0.113.5")


def test_behind_the_proxy_the_client_is_the_address_it_wrote(settings):
    for name, value in BEHIND_ONE_PROXY.items():
        setattr(settings, name, value)
    # nginx (docs/proxy.md) replaces the header with the address it was reached from.
    req = request(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.1")
    assert both(req) == ("198.51.100.1", "198.51.100.1")
    # Phones on the club's own network: their private address, not the proxy's.
    req = request(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="192.168.1.20")
    assert client_ip(req) == "192.168.1.20"


def test_behind_a_proxy_that_appends_the_clients_own_entries_are_replaced(settings):
    """A proxy that appends keeps what the client sent on the left: only the entry the
    proxy wrote (the right-most) is believed."""
    for name, value in BEHIND_ONE_PROXY.items():
        setattr(settings, name, value)
    req = request(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 198.51.100.1")
    assert both(req) == ("198.51.100.1", "198.51.100.1")
    req = request(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="garbage, 198.51.100.1")
    assert client_ip(req) == "198.51.100.1"


def test_behind_two_proxies_the_second_entry_from_the_right(settings):
    settings.AXES_IPWARE_META_PRECEDENCE_ORDER = ("HTTP_X_FORWARDED_FOR",)
    settings.AXES_IPWARE_PROXY_COUNT = 1
    req = request(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 198.51.100.1, 10.0.0.2")
    assert both(req) == ("198.51.100.1", "198.51.100.1")


def test_a_request_that_did_not_come_through_the_proxy_is_its_connection(settings):
    for name, value in BEHIND_ONE_PROXY.items():
        setattr(settings, name, value)
    assert client_ip(request(REMOTE_ADDR="127.0.0.1")) == "127.0.0.1"
    assert client_address(request(REMOTE_ADDR="not-an-address")) == "unknown"
    assert get_client_ip_address(request(REMOTE_ADDR="not-an-address")) is None


@pytest.mark.parametrize(
    ("count", "order", "proxies"),
    [
        ("0", "('REMOTE_ADDR',)", "None"),
        ("1", "('HTTP_X_FORWARDED_FOR',)", "0"),
        ("2", "('HTTP_X_FORWARDED_FOR',)", "1"),
    ],
)
def test_the_setting_says_how_many_proxies_stand_in_front(count, order, proxies):
    """TRUSTED_PROXY_COUNT (the proxies in front of gunicorn) becomes django-axes'
    ipware settings: ipware counts only the proxies named in the header."""
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ENV"}
    env.update(TRUSTED_PROXY_COUNT=count, DJANGO_SETTINGS_MODULE="clubsite.settings")
    shown = subprocess.run(
        [
            sys.executable,
            "-c",
            "from django.conf import settings as s;"
            "print(s.AXES_IPWARE_META_PRECEDENCE_ORDER, s.AXES_IPWARE_PROXY_COUNT,"
            " s.AXES_CLIENT_IP_CALLABLE)",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout.split()
    assert shown == [order, proxies, "clubsite.lockout.login_address"]


@pytest.mark.django_db
def test_a_failed_login_behind_the_proxy_is_recorded_for_the_client(settings, officer_user):
    for name, value in BEHIND_ONE_PROXY.items():
        setattr(settings, name, value)
    browser = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.1")
    browser.post(reverse("login"), {"username": "officer", "password": "wrong"})
    assert list(AccessAttempt.objects.values_list("ip_address", flat=True)) == ["198.51.100.1"]

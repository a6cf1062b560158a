"""Login lockouts (django-axes) that stop a guesser without stopping the club.

Failures are counted three ways, each locking for ``LOGIN_LOCK_MINUTES`` after
``AXES_FAILURE_LIMIT`` of them (``AXES_LOCKOUT_PARAMETERS`` is :func:`lockout_parameters`):

- a device over any user names (its ``club_device`` cookie, which
  ``clubsite.middleware.login_device`` puts in the user agent axes records, and its
  address); clients without the cookie count as one device per address;
- a user name on a device;
- a user name from one client address (the real one, through the trusted proxies:
  ``TRUSTED_PROXY_COUNT``), over every device there it was never logged in on. This is
  what stops a guesser who takes a new device cookie every few tries: those are all new
  devices at the same address. Wrong passwords typed at one address never lock the
  name at another: an officer on a new tablet elsewhere still gets in.

A browser that has logged in with a user name keeps a signed ``club_logins`` cookie
saying so (:func:`remember_login`); for that name it is counted only as a device, so
wrong passwords typed elsewhere under the name never lock its member out of it. This
is OWASP's "device cookies" scheme (Slow Down Online Guessing Attacks with Device
Cookies), built from django-axes' documented settings.

The client address axes counts is :func:`login_address`: an IPv4 address as it is, an
IPv6 address by its /64 network (one home or phone connection holds a whole /64, and
would otherwise have more addresses than any limit).
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.core import signing
from django.shortcuts import render
from django.utils.crypto import salted_hmac

KNOWN_COOKIE = "club_logins"
KNOWN_SALT = "clubsite.lockout.known"
#: A browser counts as known for a user name this long after it last logged in with it.
KNOWN_AGE = 365 * 24 * 3600
#: User names one browser is known for (a shared tablet: the officers who use it).
KNOWN_MAX = 8

DEVICE = ["ip_address", "user_agent"]
NAME_ON_DEVICE = ["username", "ip_address", "user_agent"]
NAME_AT_ADDRESS = ["username", "ip_address"]
#: How much of an IPv6 address is one client's (the network of one connection).
IPV6_CLIENT_PREFIX = 64


def _mark(username: str) -> str:
    """What the cookie keeps of a user name: a keyed hash, not the name."""
    return salted_hmac(KNOWN_SALT, username).hexdigest()[:20]


def _marks(request) -> list[str]:
    cookies = getattr(request, "COOKIES", None) or {}
    try:
        marks = signing.loads(cookies.get(KNOWN_COOKIE, ""), salt=KNOWN_SALT, max_age=KNOWN_AGE)
    except signing.BadSignature:
        return []
    return [m for m in marks if isinstance(m, str)] if isinstance(marks, list) else []


def known_browser(request, username: str | None) -> bool:
    """Whether this browser has logged in with ``username`` before."""
    return bool(username) and _mark(username) in _marks(request)


def remember_login(request, response, username: str) -> None:
    """After a successful login: this browser is known for ``username`` from now on."""
    mark = _mark(username)
    marks = [mark, *(m for m in _marks(request) if m != mark)][:KNOWN_MAX]
    response.set_cookie(
        KNOWN_COOKIE,
        signing.dumps(marks, salt=KNOWN_SALT),
        max_age=KNOWN_AGE,
        httponly=True,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )


def _username(request, credentials) -> str | None:
    if credentials:
        return credentials.get("username")
    post = getattr(request, "POST", None)
    return post.get("username") if post is not None else None


def lockout_parameters(request, credentials=None) -> list[list[str]]:
    """``AXES_LOCKOUT_PARAMETERS``: the device, the name on the device, and the name at
    this client address unless this browser has logged in with it before."""
    parameters = [NAME_ON_DEVICE, DEVICE]
    username = _username(request, credentials)
    if username and not known_browser(request, username):
        parameters.append(NAME_AT_ADDRESS)
    return parameters


def login_address(request) -> str | None:
    """``AXES_CLIENT_IP_CALLABLE``: the client's address (``clubsite.devices.client_ip``),
    an IPv6 one as the first address of its /64 network."""
    from clubsite.devices import client_ip

    address = client_ip(request)
    if address is None:
        return None
    ip = ipaddress.ip_address(address)
    if ip.version == 6 and ip.ipv4_mapped is None:
        return str(ipaddress.ip_network(f"{ip}/{IPV6_CLIENT_PREFIX}", strict=False).network_address)
    return address


def locked_out(request, original_response=None, credentials=None):
    """``AXES_LOCKOUT_CALLABLE``: the lockout page, saying what to do in plain words."""
    return render(
        request,
        "registration/locked_out.html",
        {"minutes": settings.LOGIN_LOCK_MINUTES},
        status=429,
    )

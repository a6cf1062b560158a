"""Which club an address is for, and the addresses of a club's pages.

The rule (docs/development.md, "Clubs"), in this order:

1. A host name given to a club (``Club.host``) serves that club at ``/``.
2. A path whose first part is a club's slug serves that club at ``/<slug>/…``; one
   whose first part is a club's old slug (``ClubSlugRedirect``: the club moved)
   redirects permanently to the same page at the club's slug now.
3. A site with exactly one club, and ``CLUBS_SHARED_SITE`` off, serves it at ``/``
   too (a single-club install: today's addresses).
4. Otherwise the path is the site's own: ``/`` lists the clubs, and the login, the
   admin, /healthz and static files are there. Any other path is an old link from
   before the site had more than one club: it leads to the same page of the club
   that kept the root's links (``Club.root_links``), at ``/<slug>/…``.

Which host names a club may have is decided here too (:func:`host_problem`): never one
the site itself is served on (:func:`site_hosts`), nor another club's, nor anything
but a host name. Every way a club gets a host asks it: ``create_club`` (the command,
the service), ``import_club`` and the admin's club form.
"""

from __future__ import annotations

import functools
import hashlib
import ipaddress
import re
import uuid
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Exists, F, Func, OuterRef, Q, Subquery
from django.http.request import split_domain_port
from django.urls import get_script_prefix, reverse, set_script_prefix
from django.utils.translation import gettext as _

from members.clubs.scope import club_path
from members.models import RESERVED_SLUGS, Club, ClubSlugRedirect

#: URL names served outside any club on a shared site (the site's own pages).
SITE_PAGES = frozenset(
    {
        "home",
        "healthz",
        "login",
        "logout",
        "password_change",
        "password_change_done",
        "my_clubs",
        "password_reset_confirm",
        "club_signup",
        "club_signup_sent",
        "club_signup_confirm",
    }
)


@dataclass(frozen=True)
class Found:
    """What an address is for: ``club`` (None for the site's own pages), the path
    prefix of the club's pages ("" when served at the root), for an old root link the
    club it now leads to, and for a club's old slug the club that had it."""

    club: Club | None
    prefix: str = ""
    old_link_of: Club | None = None
    moved_to: Club | None = None


def shared_site() -> bool:
    return bool(getattr(settings, "CLUBS_SHARED_SITE", False))


#: A host name: dot-separated labels of letters, digits and inner dashes.
HOST_NAME = re.compile(
    r"^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$"
)


def fold_host(host: str | None) -> str:
    """A host name as the rules compare it: no spaces, small letters, no final dot
    (``Scores.Example.org.`` is ``scores.example.org``)."""
    return (host or "").strip().lower().rstrip(".")


def site_hosts() -> frozenset[str]:
    """The host names the shared site itself is served on: ``SITE_URL``'s, those in
    ``SITE_HOSTS``, and the machine's own name (``localhost``)."""
    hosts = {fold_host(h) for h in getattr(settings, "SITE_HOSTS", ())}
    hosts.add(fold_host(urlsplit(settings.SITE_URL).hostname))
    hosts.add("localhost")
    hosts.discard("")
    return frozenset(hosts)


def _is_ip_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


def host_problem(host: str | None, club: Club | None = None) -> str | None:
    """Why ``host`` cannot be ``club``'s host name (a new club's when ``club`` is None
    or unsaved), in plain words; None when it can (an empty host always can)."""
    folded = fold_host(host)
    if not folded:
        return None
    if folded in site_hosts() or _is_ip_address(folded):
        return _(
            "%(host)s is an address of the site itself, not a club's: give the club a host "
            "name of its own, or none."
        ) % {"host": folded}
    if not HOST_NAME.match(folded):
        return _(
            "“%(host)s” is not a host name: write one like scores.example.org, without "
            "http:// or a port."
        ) % {"host": host.strip()}
    others = Club.objects.filter(Q(host__iexact=folded) | Q(host__iexact=f"{folded}."))
    if club is not None and club.pk is not None:
        others = others.exclude(pk=club.pk)
    if others.exists():
        return _("Another club has the host name %(host)s already.") % {"host": folded}
    return None


def _host(request) -> str:
    return fold_host(request.get_host().rsplit(":", 1)[0]) if request.get_host() else ""


def find_club(request) -> Found:
    """The club of ``request`` by the rule above, in one query (a second only on a
    site whose root links went with a deleted club). An empty first part (``/``) is
    never an old slug."""
    first = request.path_info.lstrip("/").split("/", 1)[0]
    host = _host(request)
    if host in site_hosts():
        host = ""  # never a club's, even one given it before the rule (host_problem)
    count = Subquery(
        Club.objects.order_by().annotate(n=Func(F("pk"), function="COUNT")).values("n")[:1]
    )
    old_slug = ClubSlugRedirect.objects.filter(old_slug=first)
    rows = list(
        Club.objects.filter(
            Q(host=host)
            | Q(slug=first)
            | Q(root_links=True)
            | Q(pk__in=Subquery(old_slug.values("club_id")))
        ).annotate(clubs=count, moved_from_here=Exists(old_slug.filter(club=OuterRef("pk"))))
    )
    by_host = next((c for c in rows if c.host and c.host == host), None)
    if by_host is not None:
        return Found(by_host)
    by_slug = next((c for c in rows if c.slug == first), None)
    if by_slug is not None:
        return Found(by_slug, f"{by_slug.slug}")
    moved = next((c for c in rows if c.moved_from_here), None) if first else None
    if moved is not None:
        return Found(None, first, moved_to=moved)
    total = rows[0].clubs if rows else Club.objects.count()
    if total == 1 and not shared_site():
        only = rows[0] if rows else Club.objects.get()
        return Found(only)
    old = next((c for c in rows if c.root_links), None)
    return Found(None, old_link_of=old)


def _at_own_host(request) -> bool:
    """Whether ``request`` came to its club's own host name (where ``/<slug>/…`` is a
    path of that club, not another's)."""
    here = getattr(request, "club", None)
    return bool(here is not None and here.host and fold_host(here.host) == _host(request))


def club_url(request, club: Club, name: str, **kwargs) -> str:
    """The address of page ``name`` of ``club`` (another club than the request's: where
    its table link, room code or board code leads), seen from ``request``: at the club's
    own host name when it has one; else ``/<slug>/…`` at the site's own address, which
    is ``SITE_URL`` when the request came to a club's own host."""
    if club.host:
        base = getattr(request, "site_prefix", None) or get_script_prefix()
        current = get_script_prefix()
        set_script_prefix(base)
        try:
            path = reverse(name, kwargs=kwargs)
        finally:
            set_script_prefix(current)
        port = split_domain_port(request.get_host())[1]
        return f"{request.scheme}://{fold_host(club.host)}{':' + port if port else ''}{path}"
    path = club_path(request, club, name, **kwargs)
    if _at_own_host(request):
        return settings.SITE_URL.rstrip("/") + path
    return path


# The club of an address, looked up once and kept in the shared cache (Redis, or the
# database's cache table), so that every server sees a change at once: each kept answer
# carries the version of the clubs' addresses it was found under, and any save or
# delete of a club or of an old slug (``ClubSlugRedirect``) gives the addresses a new
# version (:func:`clubs_changed`, connected in ``members.apps``), which no kept answer
# has. The version and the answer are read in one round trip.
VERSION_KEY = "club-addresses:version"
#: How long an answer is kept (a version change retires it sooner).
KEEP_SECONDS = 24 * 3600
_SLUG_LIKE = re.compile(r"[-a-zA-Z0-9_]+")


@functools.cache
def _never_a_slug() -> frozenset[str]:
    """First path parts no club's slug can be (the site's own, the pages' own)."""
    from django.urls import get_resolver

    taken = set(RESERVED_SLUGS) | {""}

    def walk(patterns):  # an include() with an empty prefix gives its own first parts
        for pattern in patterns:
            first = str(pattern.pattern).lstrip("^").split("/")[0]
            taken.add(first)
            if not first:
                walk(getattr(pattern, "url_patterns", ()))

    walk(get_resolver().url_patterns)
    return frozenset(taken)


def _answer_key(host: str, first: str) -> str:
    # The site's setting is in the key too: the answer for a lone club depends on it.
    digest = hashlib.sha256(f"{host}\n{first}\n{shared_site()}".encode()).hexdigest()[:32]
    return f"club-addresses:{digest}"


def find_club_cached(request) -> Found:
    """:func:`find_club`, kept in the shared cache. The answer is kept per host and per
    first path part that could be a slug; a first part that cannot (``t``, ``board``…)
    shares the host's one answer. A slug-like first part that is no club's slug nor an
    old one (a scanner's guess) is looked up each time and not kept, so guesses cannot
    fill the cache."""
    first = request.path_info.lstrip("/").split("/", 1)[0]
    slug_like = first.lower() not in _never_a_slug() and _SLUG_LIKE.fullmatch(first)
    key = _answer_key(_host(request), first if slug_like else "")
    kept = cache.get_many([VERSION_KEY, key])
    version = kept.get(VERSION_KEY)
    answer = kept.get(key)
    if version is not None and answer is not None and answer[0] == version:
        return answer[1]
    found = find_club(request)
    if slug_like and found.prefix != first:
        return found  # the host's or the site's answer for a guessed first part
    if version is None:  # cleared or evicted: a new one (answers under an old one die)
        version = uuid.uuid4().hex
        cache.set(VERSION_KEY, version, None)
    cache.set(key, (version, found), KEEP_SECONDS)
    return found


def clubs_changed(**kwargs) -> None:
    """A club or an old slug was saved or deleted: every kept answer is retired, now
    and again when the transaction commits (a request that read the rows before the
    commit may have kept the old answer under the new version meanwhile)."""
    cache.set(VERSION_KEY, uuid.uuid4().hex, None)
    transaction.on_commit(lambda: cache.set(VERSION_KEY, uuid.uuid4().hex, None))

"""Which club an address is for, and the addresses of a club's pages.

The rule (docs/development.md, "Clubs"), in this order:

1. A host name given to a club (``Club.host``) serves that club at ``/``.
2. A path whose first part is a club's slug serves that club at ``/<slug>/…``.
3. A site with exactly one club, and ``CLUBS_SHARED_SITE`` off, serves it at ``/``
   too (a single-club install: today's addresses).
4. Otherwise the path is the site's own: ``/`` lists the clubs, and the login, the
   admin, /healthz and static files are there. Any other path is an old link from
   before the site had more than one club: it leads to the same page of the club
   that kept the root's links (``Club.root_links``), at ``/<slug>/…``.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.db.models import F, Func, Q, Subquery

from members.models import Club

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
    }
)


@dataclass(frozen=True)
class Found:
    """What an address is for: ``club`` (None for the site's own pages), the path
    prefix of the club's pages ("" when served at the root), and for an old root
    link, the club it now leads to."""

    club: Club | None
    prefix: str = ""
    old_link_of: Club | None = None


def shared_site() -> bool:
    return bool(getattr(settings, "CLUBS_SHARED_SITE", False))


def _host(request) -> str:
    return request.get_host().rsplit(":", 1)[0].lower() if request.get_host() else ""


def find_club(request) -> Found:
    """The club of ``request`` by the rule above, in one query (a second only on a
    site whose root links went with a deleted club)."""
    first = request.path_info.lstrip("/").split("/", 1)[0]
    host = _host(request)
    count = Subquery(
        Club.objects.order_by().annotate(n=Func(F("pk"), function="COUNT")).values("n")[:1]
    )
    rows = list(
        Club.objects.filter(Q(host=host) | Q(slug=first) | Q(root_links=True)).annotate(clubs=count)
    )
    by_host = next((c for c in rows if c.host and c.host == host), None)
    if by_host is not None:
        return Found(by_host)
    by_slug = next((c for c in rows if c.slug == first), None)
    if by_slug is not None:
        return Found(by_slug, f"{by_slug.slug}")
    total = rows[0].clubs if rows else Club.objects.count()
    if total == 1 and not shared_site():
        only = rows[0] if rows else Club.objects.get()
        return Found(only)
    old = next((c for c in rows if c.root_links), None)
    return Found(None, old_link_of=old)

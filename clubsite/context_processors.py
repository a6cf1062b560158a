import functools

from django.conf import settings
from django.urls import NoReverseMatch, get_script_prefix, get_urlconf, reverse
from django.utils.html import escape
from django.utils.safestring import SafeString

from members.permissions import is_officer

# (label, url name, who sees it: "officer", "member" (any logged-in user) or "all")
NAV = [
    ("Club days", "members:days", "officer"),
    ("People", "members:people", "officer"),
    ("Rule sets", "scoring:rulesets", "officer"),
    ("Standings", "scoring:standings", "member"),
    ("Day results", "scoring:day_results", "member"),
    ("Records", "scoring:records", "member"),
    ("My page", "members:me", "member"),
]
# The addresses every page's header and footer link to (base.html's ``site_urls``).
SITE_URLS = ("home", "login", "logout", "password_change")


@functools.cache
def _nav_urls(urlconf, prefix: str) -> tuple[tuple[str, str, str], ...]:
    """(label, url, who) of the menu, reversed once per URLconf and script prefix (they
    never change while the process runs; every page draws the menu)."""
    found = []
    for label, name, who in NAV:
        try:
            found.append((label, reverse(name, urlconf=urlconf), who))
        except NoReverseMatch:
            continue
    return tuple(found)


@functools.cache
def _site_urls(urlconf, prefix: str) -> dict[str, str]:
    """The addresses of :data:`SITE_URLS`, reversed once per URLconf and script prefix
    (what ``{% url %}`` gave on every page)."""
    return {name: reverse(name, urlconf=urlconf) for name in SITE_URLS}


def nav_html(items) -> SafeString:
    """The menu's ``<li>`` items, as includes/nav.html drew them: a page draws it
    every time, so it is a few strings rather than a template loop."""
    return SafeString(
        "\n"
        + "".join(
            f'<li><a href="{escape(item["url"])}"'
            + (' aria-current="page"' if item["current"] else "")
            + f">{escape(item['label'])}</a></li>"
            for item in items
        )
        + "\n"
    )


def club(request):
    """The club's name, the viewer's role, the menu and the site's own addresses, for
    every page."""
    user = getattr(request, "user", None)
    officer = is_officer(user)
    logged_in = bool(user and user.is_authenticated)
    urlconf, prefix = get_urlconf(), get_script_prefix()
    items = []
    for label, url, who in _nav_urls(urlconf, prefix):
        if (who == "officer" and not officer) or (who == "member" and not logged_in):
            continue
        items.append({"label": label, "url": url, "current": request.path.startswith(url)})
    return {
        "club_name": settings.CLUB_NAME,
        "is_officer": officer,
        "nav_items": items,
        "nav_html": nav_html(items),
        "site_urls": _site_urls(urlconf, prefix),
    }

import functools

from django.conf import settings
from django.urls import NoReverseMatch, get_script_prefix, get_urlconf, reverse

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


def club(request):
    """The club's name, the viewer's role and the menu, for every page."""
    user = getattr(request, "user", None)
    officer = is_officer(user)
    logged_in = bool(user and user.is_authenticated)
    items = []
    for label, url, who in _nav_urls(get_urlconf(), get_script_prefix()):
        if (who == "officer" and not officer) or (who == "member" and not logged_in):
            continue
        items.append({"label": label, "url": url, "current": request.path.startswith(url)})
    return {"club_name": settings.CLUB_NAME, "is_officer": officer, "nav_items": items}

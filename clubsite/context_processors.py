from django.conf import settings
from django.urls import NoReverseMatch, reverse

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
    ("Club settings", "club_settings", "officer"),
]


def club(request):
    """The club's name, the viewer's role and the menu (includes/nav.html), for every
    page. A menu link appears only when its page exists and the viewer may see it. The
    site's own pages (``request.club`` None: the list of clubs, the login of a shared
    site) have the site's name and no club menu."""
    current = getattr(request, "club", None)
    if current is None:
        return {"club_name": settings.SITE_NAME, "is_officer": False, "nav_items": [], "club": None}
    user = getattr(request, "user", None)
    officer = is_officer(user)
    logged_in = bool(user and user.is_authenticated)
    items = []
    for label, name, who in NAV:
        if (who == "officer" and not officer) or (who == "member" and not logged_in):
            continue
        try:
            url = reverse(name)
        except NoReverseMatch:
            continue
        items.append({"label": label, "url": url, "current": request.path.startswith(url)})
    return {"club_name": current.name, "is_officer": officer, "nav_items": items, "club": current}

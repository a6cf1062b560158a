from django.conf import settings
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext_lazy as _

from clubsite import display
from members.clubs import languages
from members.clubs.scope import current_club_id
from members.models import Paper
from members.money.access import is_treasurer
from members.permissions import belongs_to_club, is_officer, person_for

# (label, url name, who sees it: "officer", "treasurer" (or officer), "member" (any
# logged-in user), "booker" (a login with a member's record here) or "all")
NAV = [
    (_("Club days"), "members:days", "officer"),
    (_("People"), "members:people", "officer"),
    (_("Bookings"), "bookings:hub", "officer"),
    (_("Rule sets"), "scoring:rulesets", "officer"),
    (_("Standings"), "scoring:standings", "member"),
    (_("Day results"), "scoring:day_results", "member"),
    (_("Records"), "scoring:records", "member"),
    (_("Book a day"), "bookings:days", "booker"),
    (_("My page"), "members:me", "member"),
    (_("Money"), "money:balances", "treasurer"),
    (_("Club settings"), "club_settings", "officer"),
]


def club(request):
    """The club's name, the viewer's role and the menu (includes/nav.html), for every
    page. A menu link appears only when its page exists and the viewer may see it. The
    site's own pages (``request.club`` None: the list of clubs, the login of a shared
    site) have the site's name and no club menu."""
    current = getattr(request, "club", None)
    if current is None:
        return {
            "club_name": settings.SITE_NAME,
            "is_officer": False,
            "nav_items": [],
            "club": None,
            **_language_context(request),
        }
    user = getattr(request, "user", None)
    officer = is_officer(user)
    # The members' items for the club's own people: a login of another club only is a
    # visitor here (its pages would refuse it).
    logged_in = officer or belongs_to_club(user)
    items = []
    for label, name, who in NAV:
        if (who == "officer" and not officer) or (who == "member" and not logged_in):
            continue
        if who == "booker" and not _is_member(request, user, officer):
            continue
        if who == "treasurer" and not (officer or is_treasurer(user)):
            continue
        try:
            url = reverse(name)
        except NoReverseMatch:
            continue
        items.append({"label": label, "url": url, "current": request.path.startswith(url)})
    return {
        "club_name": current.name,
        "is_officer": officer,
        "nav_items": items,
        "club": current,
        **_language_context(request),
    }


def _is_member(request, user, officer: bool) -> bool:
    """Whether the login is a member of the active club, for the menu's "Book a day".
    Anyone else's person was read for the menu already (``belongs_to_club``); an
    officer's pages do not read it otherwise, so for an officer the answer is kept in
    the session (one read per login and club, not one per page). The bookings pages
    check it again themselves, so a stale answer only shows or hides a link."""
    if not user or not user.is_authenticated:
        return False
    session = getattr(request, "session", None)
    key = f"club_member:{current_club_id()}"
    known = session.get(key) if officer and session is not None else None
    if known is None:
        person = person_for(user)
        known = person is not None and person.is_member
        if officer and session is not None:
            session[key] = known
    return known


def _language_context(request) -> dict:
    paper = languages.paper_size(request)
    return {
        # Each language by its own name ("Español"), for the language switch.
        "site_languages": settings.LANGUAGES,
        # The club's paper, named in the reader's language ("A4", "Carta"); print
        # pages link its stylesheet.
        "paper": Paper(paper).label,
        "paper_css": f"css/paper-{paper.lower()}.css",
        # This phone's "Larger" and "High contrast" switches: classes on <html>.
        "display_on": display.chosen(request),
    }

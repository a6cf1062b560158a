"""The name of the login reading a page, for the site's footer ("Signed in as Ana
Socia."): their person's first and last name in this club, not the login's user name."""

from __future__ import annotations

from django import template

from members.bookings.reads import login_name
from members.permissions import is_officer, own_person

register = template.Library()


@register.simple_tag(takes_context=True)
def signed_in_name(context) -> str:
    """The reader's person in this club, by name. No query of its own for a member
    (the page's menu has read their person, kept on the login for the request) nor
    for an officer whose login has a first and last name (named by the login); an
    officer's login without one costs one query."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return ""
    person = getattr(request, "person", None)
    if person is None and (not is_officer(user) or not user.get_full_name()):
        person = own_person(user)
    return login_name(user, person)

"""The frame every page draws (base.html): the menu drawn in Python (nav_html) and the
site's own addresses reversed once (site_urls) give the same HTML as the template loop
and the ``{% url %}`` tags they replace; the home page's room-code box is
the box of includes/code_box.html."""

import pytest
from django.template import engines
from django.test import RequestFactory
from django.urls import reverse

from clubsite.context_processors import SITE_URLS, club, nav_html

pytestmark = pytest.mark.django_db

# What includes/nav.html drew (its loop, as it was).
NAV_LOOP = (
    '{% for item in nav_items %}<li><a href="{{ item.url }}"{% if item.current %}'
    ' aria-current="page"{% endif %}>{{ item.label }}</a></li>{% endfor %}'
)


def test_the_menu_is_the_template_loop():
    items = [
        {"label": "Standings", "url": "/results/standings/", "current": True},
        {"label": "Tom & <Jerry>", "url": '/a?b=1&c="2"', "current": False},
    ]
    loop = engines["django"].from_string(NAV_LOOP).render({"nav_items": items})
    assert nav_html(items) == f"\n{loop}\n"
    assert nav_html([]) == "\n\n"


def test_the_site_urls_are_reversed(rf: RequestFactory, officer_user):
    request = rf.get(reverse("scoring:standings"))
    request.user = officer_user
    context = club(request)
    assert context["site_urls"] == {name: reverse(name) for name in SITE_URLS}
    current = [item["label"] for item in context["nav_items"] if item["current"]]
    assert current == ["Standings"]
    assert 'aria-current="page">Standings</a>' in context["nav_html"]
    assert "People" in context["nav_html"]  # an officer's menu


def _box(name, label, value, error) -> str:
    template = engines["django"].get_template("includes/code_box.html")
    return template.render({"name": name, "label": label, "value": value, "error": error})


@pytest.mark.parametrize("code, error", [("", ""), ('AB<"C&', "Not a room & <code>")])
def test_the_home_page_box_is_the_code_box(rf, code, error):
    from django.contrib.auth.models import AnonymousUser

    request = rf.get("/")
    request.user = AnonymousUser()
    context = {"room_code": code, "room_error": error}
    page = engines["django"].get_template("home.html").render(context, request)
    assert _box("room_code", "Room code", code, error) in page


def test_the_frame_links_home_and_out(officer_client):
    page = officer_client.get(reverse("home")).content.decode()
    assert f'<a class="brand" href="{reverse("home")}">' in page
    assert f'action="{reverse("logout")}"' in page
    assert f'href="{reverse("password_change")}"' in page

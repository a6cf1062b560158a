"""An officer scoring from a phone: the site's menu is folded behind one button on the
table page, so it never pushes the pad down; every other page keeps it open."""

import re

from django.urls import reverse


def _header(html: str) -> str:
    return re.search(r'<header class="site-header">.*?</header>', html, re.S).group(0)


def test_the_table_page_folds_the_officers_menu(officer_client, game):
    header = _header(officer_client.get(reverse("scoring:table", args=[game.table_id])).text)
    fold = re.search(r"<details class=\"menu-fold\">(.*?)</details>", header, re.S)
    assert fold, header  # closed: no "open" attribute
    assert "<summary>Menu</summary>" in fold.group(1)
    assert f'href="{reverse("members:people")}"' in fold.group(1)  # the officer's links inside
    other = _header(officer_client.get(reverse("members:people")).text)
    assert "menu-fold" not in other and f'href="{reverse("members:people")}"' in other

"""Journey: a three-player table on the narrowest phones (320 and 360 px), in all three
languages, with "Larger" off: no page scrolls sideways, the went-out choices ("Cortó",
"Bateu", "Out") stay whole inside their own side's column, and a long refusal of the
live preview wraps in the bar, every word of it on the screen. Screenshots in
``artifacts/screenshots/<test>/``.
"""

import pytest
from playwright.sync_api import expect

from clubsite.tests.test_journey_display import measure, speak
from clubsite.tests.test_journey_pad import make_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NOT_YET = {"en": "Not yet: fix these first", "es": "Todavía no", "pt-br": "Ainda não"}


def whole(locator) -> bool:
    """The element's words are not cut off nor running out of it."""
    return locator.evaluate(
        "e => e.scrollWidth <= e.clientWidth + 0.5 && e.scrollHeight <= e.clientHeight + 0.5"
    )


def inside(inner, outer) -> bool:
    return inner["x"] >= outer["x"] - 0.5 and (
        inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 0.5
    )


@pytest.mark.parametrize("language", ["en", "es", "pt-br"])
def test_a_table_of_three_fits_the_narrowest_phones(journey, language):
    game = make_game(3)
    page = journey.page
    speak(page, journey.base_url, language)
    journey.goto(f"/t/{game.table.token}/")
    # A long refusal: two sides went out.
    for index in (0, 1):
        page.locator(f"#entry-team-{index} .went-out label").nth(1).click()
        page.locator(f"input[name=t{index}-melded_points]").fill("300")
        page.locator(f"input[name=t{index}-natural_canastas]").fill("2")
    bar = page.locator("#hand-bar")
    expect(bar.locator("h2")).to_contain_text(NOT_YET[language])
    expect(bar.locator(".errorlist li")).to_have_count(1)
    for width in (320, 360):
        page.set_viewport_size({"width": width, "height": 700})
        page.wait_for_timeout(150)
        where = f"{language}, {width} px"
        page.locator("#entry-team-2 .went-out").scroll_into_view_if_needed()
        page.screenshot(path=str(journey.folder / f"{width}px.png"), caret="initial")
        wider = measure(page, "wider", width)
        assert page.evaluate("document.documentElement.scrollWidth") <= width, (where, wider)
        assert not wider, (where, wider)
        for label in page.locator(".pad .row-label").all():  # no word runs into a box
            assert whole(label), (where, label.inner_text())
            right = label.bounding_box()["x"] + label.bounding_box()["width"]
            assert right <= page.locator("#entry-team-0").bounding_box()["x"], where
        for index in range(3):
            column = page.locator(f"#entry-team-{index}").bounding_box()
            for choice in page.locator(f"#entry-team-{index} .went-out label span").all():
                assert whole(choice), (where, index, choice.inner_text())
                assert inside(choice.bounding_box(), column), (where, index, choice.inner_text())
        # The bar's refusal wraps: every line within the bar, none cut at its side.
        box = bar.bounding_box()
        for line in bar.locator("#preview h2, #preview .errorlist li").all():
            assert inside(line.bounding_box(), box), (where, line.inner_text())
            assert line.evaluate("e => e.scrollWidth <= e.clientWidth + 0.5"), where
        errors = bar.locator("#preview .errorlist")
        assert whole(errors), where  # not cut at its foot either
        preview = bar.locator("#preview")
        assert whole(preview), where  # the whole refusal in view, no scrolling in the bar
        journey.step(f"three players, a long refusal, {where}")

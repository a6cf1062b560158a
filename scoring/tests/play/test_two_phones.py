"""Two phones on one hand: while the phone that must choose has the choice open, its
bar says what to do (not "type the hand")."""

from scoring.tests.play.test_submissions import _conflict


def test_the_bar_says_to_choose_while_a_conflict_is_open(officer_client, game):
    _device, page = _conflict(game, officer_client)
    html = page.content.decode()
    bar = html[html.index('id="hand-bar"') :]
    assert "This hand was saved already: choose above which numbers to keep." in bar
    assert "Type the hand" not in bar

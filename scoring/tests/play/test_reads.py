"""The table's reads: a missing or malformed key is a 404, never a 500."""

import pytest
from django.http import Http404

from scoring.models import Game
from scoring.play import reads


def test_a_missing_or_malformed_key_is_a_404(db):
    for pk in (987654, "x", None, 10**23, -(10**23)):
        with pytest.raises(Http404):
            reads.one_or_404(reads.game_by_pk, pk, Game)


def test_a_key_finds_its_row_with_what_every_access_check_reads(game):
    found = reads.one_or_404(reads.game_by_pk, str(game.pk), Game)
    assert found == game
    assert Game.table.is_cached(found) and found.table.round.day == game.table.round.day

"""The club's settings page: its time zone list (short, canonical) and its paper."""

from django.urls import reverse

from members.clubs import languages
from members.clubs.forms import ClubForm
from scoring.models import ClubSettings


def _zones(form) -> list[str]:
    return [zone for _group, options in form.fields["time_zone"].choices for zone, _ in options]


def test_the_time_zone_list_is_canonical_and_starts_with_the_clubs_countries(club):
    club.language_code = "es"
    zones = _zones(ClubForm(instance=club))
    assert zones[:2] == ["America/Montevideo", "America/Argentina/Buenos_Aires"]
    assert len(zones) < 450 and "Europe/Madrid" in zones
    assert not {"US/Eastern", "America/Buenos_Aires", "Cuba", "Etc/GMT+3"} & set(zones)


def test_a_club_on_an_old_alias_keeps_it_until_it_chooses_another(club):
    club.time_zone = "US/Eastern"
    assert "US/Eastern" in _zones(ClubForm(instance=club))


def test_the_paper_is_saved_on_the_settings_page(club, officer_client):
    page = officer_client.get(reverse("club_settings")).content.decode()
    assert 'name="club-paper"' in page
    data = {
        "club-name": club.name,
        "club-time_zone": "America/Montevideo",
        "club-language_code": "en",
        "club-paper": "A4",
        "game-default_rule_set": ClubSettings.load().default_rule_set_id,
        "game-min_games_to_rank": 3,
        "game-confirm_hands": "",
    }
    response = officer_client.post(reverse("club_settings"), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    club.refresh_from_db()
    assert (club.paper, club.time_zone) == ("A4", "America/Montevideo")
    assert languages.paper_size() == "A4"  # what the workbook and printed pages read

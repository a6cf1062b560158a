"""The site in the club's language: who chooses (a member's own choice > the phone's
switch > the club's language), the words each area shows in Spanish and Brazilian
Portuguese, and numbers and dates in each language's format.

The world is the personas' world (``test_personas.build_world``): an open club day with
table 1 playing (two hands) and a finished game, a closed day last week.
"""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.formats import date_format, number_format

from clubsite.tests import test_personas as personas
from members.clubs import languages
from members.clubs.scope import current_club_id
from members.models import Person
from scoring.models import RuleSet
from scoring.tests.play.conftest import quick_post
from scoring.tests.samples import BIG, SMALL

# The personas' world, built once per module (its fixtures, used here by name).
world_keys = personas.world_keys
world = personas.world
persona_client = personas.persona_client


def page(client, url) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


def table_url(world) -> str:
    return reverse("scoring:table", args=[world.table1.pk])


def speak(settings, code) -> None:
    """The club reads ``code``: its own language (its settings page) and a new club's
    (the ``CLUB_LANGUAGE`` setting)."""
    from members.clubs.scope import current_club

    settings.CLUB_LANGUAGE = code
    club = current_club()
    club.language_code = code
    club.save(update_fields=["language_code"])


def test_the_empty_pad_kept_from_one_language_is_never_shown_in_another(world, settings):
    """The empty score pad is drawn once per rule set, sides and language and kept: a
    page drawn in English first still gets its boxes in Spanish and Portuguese, and a
    new player's name on a side is shown at once."""
    keeper = persona_client(world, "keeper")
    assert "Melded card points" in page(keeper, table_url(world))
    speak(settings, "es")
    body = page(keeper, table_url(world))
    assert "Puntos de cartas bajadas" in body and "Melded card points" not in body
    speak(settings, "pt-br")
    body = page(keeper, table_url(world))
    assert "Pontos das cartas baixadas" in body and "Puntos de cartas" not in body
    person = world.playing.teams.get(index=0).memberships.first().person
    person.first_name = "Zuleika"
    person.save(update_fields=["first_name"])
    pad = page(keeper, table_url(world)).split('class="pad ')[1]
    assert "Zuleika" in pad


# ---------------------------------------------------------------------------------------
# Who chooses


def test_the_club_language_is_the_default(world, settings):
    keeper = persona_client(world, "keeper")
    assert 'lang="en"' in page(keeper, table_url(world))
    speak(settings, "es")
    body = page(keeper, table_url(world))
    assert 'lang="es"' in body
    assert "Guardar mano 3" in body
    speak(settings, "pt-br")
    body = page(keeper, table_url(world))
    assert 'lang="pt-br"' in body
    assert "Salvar mão 3" in body


def test_the_phone_switch_is_remembered(world):
    keeper = persona_client(world, "keeper")
    response = keeper.post(
        reverse("choose_language"), {"language": "pt-br", "next": table_url(world)}
    )
    assert response.status_code == 302
    assert response["Location"] == table_url(world)
    assert keeper.cookies["club_language"].value == "pt-br"
    assert keeper.cookies["club_language"]["max-age"] == 365 * 24 * 3600
    body = page(keeper, table_url(world))
    assert "Salvar mão 3" in body
    # The next visit (the same phone, the cookie kept) still reads Portuguese.
    assert "Placar" in page(keeper, table_url(world))


def test_the_switch_refuses_another_site_and_an_unknown_language(world, settings):
    client = Client()
    response = client.post(
        reverse("choose_language"), {"language": "xx", "next": "https://evil.example/"}
    )
    assert response["Location"] == "/"
    assert client.cookies["club_language"].value == "en"  # the club's language
    speak(settings, "es")
    response = client.post(reverse("choose_language"), {"language": "fr"})
    assert client.cookies["club_language"].value == "es"


def test_a_members_choice_outranks_the_phone_and_the_club(world, settings):
    speak(settings, "es")
    member = persona_client(world, "member")
    member.cookies["club_language"] = "pt-br"
    assert "Mi página" not in page(member, reverse("members:me"))  # the phone: Portuguese
    response = member.post(reverse("members:me_language"), {"language": "en"})
    assert response.status_code == 302
    assert Person.objects.get(pk=world.mary.pk).language == "en"
    body = page(member, reverse("members:me"))
    assert 'lang="en"' in body
    # Remembered on the record: a new login on another phone reads English too.
    other = Client()
    other.force_login(world.mary.user)
    assert 'lang="en"' in page(other, reverse("members:me"))
    # "The club's language" again: the phone's switch decides.
    member.post(reverse("members:me_language"), {"language": ""})
    assert Person.objects.get(pk=world.mary.pk).language == ""
    assert 'lang="pt-br"' in page(member, reverse("members:me"))


def test_a_member_who_chose_and_taps_the_switch_changes_the_choice(world):
    member = persona_client(world, "member")
    member.post(reverse("members:me_language"), {"language": "es"})
    member.post(reverse("choose_language"), {"language": "pt-br", "next": "/me/"})
    assert Person.objects.get(pk=world.mary.pk).language == "pt-br"
    assert 'lang="pt-br"' in page(member, reverse("members:me"))


def test_a_choice_costs_no_query_per_page(world, django_assert_num_queries):
    """The member's choice is read once per login session, then kept in the session."""
    member = persona_client(world, "member")
    member.post(reverse("members:me_language"), {"language": "es"})
    request = type("R", (), {})()
    request.user = world.mary.user
    request.session = {languages.MEMBER_KEY: [world.mary.user.pk, current_club_id(), "es"]}
    request.COOKIES = {}
    with django_assert_num_queries(0):
        assert languages.language_for(request) == "es"


def test_paper_is_the_clubs_own_setting(club, settings):
    settings.CLUB_PAPER = "letter"  # a new club's; this club chose its own
    club.paper = "A4"
    club.save(update_fields=["paper"])
    assert languages.paper_size() == "A4"
    club.paper = "Letter"
    club.save(update_fields=["paper"])
    assert languages.paper_size() == "Letter"


def test_a_new_clubs_paper_follows_the_setting_else_its_language(settings):
    from members.models import Club

    settings.CLUB_PAPER = ""
    settings.CLUB_LANGUAGE = "en"
    assert Club().paper == "Letter"
    settings.CLUB_LANGUAGE = "es"
    assert Club().paper == "A4"
    settings.CLUB_PAPER = "letter"
    assert Club().paper == "Letter"


# ---------------------------------------------------------------------------------------
# Numbers and dates


@pytest.mark.parametrize("code", ["es", "pt-br"])
def test_numbers_and_dates_in_spanish_and_portuguese(code):
    with translation.override(code):
        assert number_format(1000, force_grouping=True) == "1.000"
        assert number_format(12345, force_grouping=True) == "12.345"
        assert date_format(datetime.date(2026, 12, 5), "SHORT_DATE_FORMAT") == "5/12/2026"
        assert date_format(datetime.date(2026, 12, 5), "DAY_FORMAT") == "5/12/2026"
    with translation.override("en"):
        assert number_format(1000, force_grouping=True) == "1,000"
        assert date_format(datetime.date(2026, 12, 5), "DAY_FORMAT") == "5 Dec 2026"


@pytest.mark.parametrize(
    ("code", "long", "club_day"),
    [
        ("es", "jueves 26 de noviembre de 2026", "jue 26/11/2026"),
        ("pt-br", "quinta-feira, 26 de novembro de 2026", "qui, 26/11/2026"),
        ("en", "Thursday 26 November 2026", "Thu 26 Nov 2026"),
    ],
)
def test_month_and_weekday_names_as_the_language_writes_them(code, long, club_day):
    """Brazilian Portuguese writes months and weekdays in small letters (Django's own
    catalog capitalises them: "Quinta-feira, 26 de Novembro")."""
    day = datetime.date(2026, 11, 26)
    with translation.override(code):
        assert date_format(day, "WEEKDAY_LONG_FORMAT") == long
        assert date_format(day, "CLUB_DAY_FORMAT") == club_day


@pytest.mark.parametrize(("code", "shown"), [("es", "1.040"), ("pt-br", "1.040"), ("en", "1,040")])
def test_a_rating_and_the_other_sides_score_in_the_languages_numbers(code, shown):
    """The rating on a player's page and the day results' other score (written by the
    site, not by a number column) group thousands as the language does."""
    from scoring.results.ratings import NEW_PLAYER_RATING, POINTS_PER_ORDINAL
    from scoring.results.tables.days import DayGamesTable
    from scoring.templatetags.results_tags import rating

    with translation.override(code):
        assert rating((1040 - NEW_PLAYER_RATING) / POINTS_PER_ORDINAL) == shown
        other = DayGamesTable([]).render_other_score({"other_totals": [1040, 300]})
        assert other == f"{shown} / 300"


# ---------------------------------------------------------------------------------------
# The table page: the score keeper's phone


def test_table_page_in_spanish(world, settings):
    speak(settings, "es")
    body = page(persona_client(world, "keeper"), table_url(world))
    for words in (
        "Mesa 1 · Partida 2",
        "Guardar mano 3",
        "Puntos de cartas bajadas",
        "Canastas limpias",
        "Canastas sucias",
        "Tres rojos",
        "Cortó",
        "Para bajar",
        "Deshacer mano 2",
    ):
        assert words in body, words


def test_table_page_in_portuguese(world, settings):
    speak(settings, "pt-br")
    body = page(persona_client(world, "keeper"), table_url(world))
    for words in (
        "Mesa 1 · Partida 2",
        "Salvar mão 3",
        "Pontos das cartas baixadas",
        "Canastras limpas",
        "Canastras sujas",
        "Três vermelhos",
        "Bateu",
        "Para baixar",
        "Desfazer mão 2",
    ):
        assert words in body, words


def test_an_engine_refusal_in_spanish_and_portuguese(world, settings):
    """Two teams went out: the engine refuses, in the reader's language."""
    both_out = [dict(BIG, went_out="out"), dict(SMALL, went_out="out")]
    url = reverse("scoring:hand_new", args=[world.playing.pk])
    for code, words in (
        ("es", "Los equipos 1 y 2 cortaron los dos"),
        ("pt-br", "As equipes 1 e 2 bateram as duas"),
    ):
        speak(settings, code)
        response = persona_client(world, "keeper").post(url, quick_post(both_out, 3))
        assert response.status_code == 200
        assert words in response.content.decode()


def test_going_out_without_a_canasta_is_said_without_a_count(world, settings):
    """Never "tem 0 canastra" (Portuguese's plural rule counts 0 as one): "no canasta"."""
    bare = [dict(SMALL, went_out="out"), SMALL]
    url = reverse("scoring:hand_new", args=[world.playing.pk])
    for code, words in (
        ("pt-br", "Equipe 1 bateu mas não tem nenhuma canastra"),
        ("es", "cortó pero no tiene ninguna canasta"),
    ):
        speak(settings, code)
        body = persona_client(world, "keeper").post(url, quick_post(bare, 3)).content.decode()
        assert words in body and "tem 0 canastra" not in body and "tiene 0 canasta" not in body


def test_a_refusal_naming_a_box_starts_with_a_capital(world, settings):
    """Spanish and Portuguese put the box first ("puntos bajados del Equipo 1"): the
    sentence still starts with a capital letter."""
    too_many = [dict(BIG, melded_points=1300), SMALL]
    url = reverse("scoring:hand_new", args=[world.playing.pk])
    for code, words in (
        ("es", "Puntos bajados del Equipo 1 (1.300): es más de lo que valen"),
        ("pt-br", "Pontos baixados (Equipe 1): 1.300 é mais do que valem"),
    ):
        speak(settings, code)
        response = persona_client(world, "keeper").post(url, quick_post(too_many, 3))
        assert words in response.content.decode(), code


def test_a_saved_hand_is_told_with_the_languages_numbers(world, settings):
    speak(settings, "es")
    keeper = persona_client(world, "keeper")
    url = reverse("scoring:hand_new", args=[world.playing.pk])
    response = keeper.post(url, quick_post([BIG, SMALL], 3), follow=True)
    body = response.content.decode()
    assert "Mano 3 guardada. Equipo 1 +" in body
    assert "." in body.split("Mano 3 guardada.")[1].split("</p>")[0]  # 1.234, not 1,234


# ---------------------------------------------------------------------------------------
# The door, the board


def test_the_door_in_spanish_and_portuguese(world, settings):
    url = reverse("members:signin", args=[world.day.pk]) + "?q=Walt"
    officer = persona_client(world, "officer")
    speak(settings, "es")
    body = page(officer, url)
    for words in ("Registro en la entrada", "Registrar · mostró el carnet", "Presentes: 9"):
        assert words in body, words
    response = officer.post(
        reverse("members:signin_person", args=[world.day.pk]),
        {"person": world.walt.pk, "card_shown": "false"},
        follow=True,
    )
    assert "Walt Walkin registrado. No mostró el carnet." in response.content.decode()
    speak(settings, "pt-br")
    body = page(officer, reverse("members:signin", args=[world.day.pk]) + "?q=Sid")
    assert "Registro na entrada" in body
    assert "Chegada já registrada às" in body


def test_the_board_in_spanish_and_portuguese(world, settings):
    officer = persona_client(world, "officer")
    url = reverse("scoring:board", args=[world.day.pk])
    speak(settings, "es")
    body = page(officer, url)
    for words in ("Ronda 1", "Mesa 1", "Partida 2 · 2 manos", "Empatados en 1.480"):
        assert words in body, words
    speak(settings, "pt-br")
    body = page(officer, url)  # the cached body is kept per language
    for words in ("Rodada 1", "Partida 2 · 2 mãos", "Empatados em 1.480", "Ainda não começou"):
        assert words in body, words


# ---------------------------------------------------------------------------------------
# The results pages


def test_the_standings_in_spanish_and_portuguese(world, settings):
    member = persona_client(world, "member")
    url = reverse("scoring:standings") + "?season=all&columns=all"
    speak(settings, "es")
    body = page(member, url)
    for words in ("Posiciones", "% ganadas", "Diferencia", "Nivel", "Sobre el nivel", "1.000"):
        assert words in body, words
    speak(settings, "pt-br")
    body = page(member, url)
    for words in ("Classificação", "% vitórias", "Saldo", "Nível", "Duplas"):
        assert words in body, words


def test_a_guest_is_named_in_the_readers_language(world, settings):
    """Gus the guest played a finished game: his badge on the results tables and his
    name in the CSV say "visitante" (a man or a woman alike), never the English word."""
    officer = persona_client(world, "officer")
    for code, guest in (("es", "visitante"), ("pt-br", "visitante")):
        speak(settings, code)
        for name in ("scoring:standings", "scoring:partnerships", "scoring:records"):
            body = page(officer, reverse(name) + "?season=all")
            assert f'<span class="badge">{guest}</span>' in body, (code, name)
            assert ">guest<" not in body, (code, name)
        csv = officer.get(reverse("scoring:partnerships") + "?season=all&_export=csv")
        text = b"".join(csv.streaming_content if csv.streaming else [csv.content]).decode()
        assert f"Gus Guest ({guest})" in text, code
        assert "(guest)" not in text, code


def test_a_days_results_in_portuguese_with_its_dates(world, settings):
    speak(settings, "pt-br")
    body = page(persona_client(world, "member"), reverse("scoring:day_results") + "?season=all")
    assert "Resultados dos encontros" in body
    date = world.last_week.date
    assert f"{date.day}/{date.month}/{date.year}" in body  # 19/11/2026, day first


# ---------------------------------------------------------------------------------------
# The e-mail, the day sheet, the workbook


def test_each_member_gets_the_results_email_in_their_language(world, settings, mailoutbox):
    from scoring.results.mail_tasks import send_day_results

    speak(settings, "es")
    Person.objects.filter(pk=world.mary.pk).update(results_by_email=True, language="pt-br")
    Person.objects.filter(pk=world.olga.pk).update(results_by_email=True)
    send_day_results(world.last_week, key="k1", site_root="https://club.test/")
    by_address = {m.to[0]: m for m in mailoutbox}
    olga, mary = by_address[world.olga.email], by_address[world.mary.email]
    assert olga.subject.startswith("Resultados de ")
    assert "Hola, Olga:" in olga.body and "LOS SEIS MEJORES" in olga.body
    assert "Olá, Mary," in mary.body and "OS SEIS MELHORES" in mary.body
    assert "Seu nível:" in mary.body
    assert 'lang="pt-br"' in mary.alternatives[0][0]


def test_the_day_sheet_in_spanish_on_a4(world, settings):
    from members.clubs.scope import current_club

    speak(settings, "es")
    club = current_club()
    club.paper = "A4"
    club.save(update_fields=["paper"])
    body = page(
        persona_client(world, "member"), reverse("scoring:day_sheet", args=[world.last_week.pk])
    )
    assert "Los seis mejores" in body and "hoja A4" in body
    assert "(ganaron)" in body and "(ganó)" not in body  # a pair won the game
    assert "css/paper-a4.css" in body
    club.paper = "Letter"  # on the club's settings page
    club.save(update_fields=["paper"])
    body = page(
        persona_client(world, "member"), reverse("scoring:day_sheet", args=[world.last_week.pk])
    )
    assert "css/paper-letter.css" in body and "hoja Carta" in body  # the US size's name


@pytest.mark.parametrize(
    ("code", "sheets", "headers"),
    [
        # The world's club has run an event: its ranking is the last sheet.
        (
            "es",
            ["Resumen", "Posiciones", "Partidas", "Manos", "Asistencia", "Socios", "Torneos"],
            "Nivel",
        ),
        (
            "pt-br",
            ["Resumo", "Classificação", "Partidas", "Mãos", "Presença", "Sócios", "Torneios"],
            "Nível",
        ),
    ],
)
def test_the_workbook_in_spanish_and_portuguese(world, settings, code, sheets, headers):
    import io

    import openpyxl

    from members.clubs.scope import current_club

    speak(settings, code)
    club = current_club()
    club.paper = "A4"  # the club's own setting
    club.save(update_fields=["paper"])
    response = persona_client(world, "officer").get(
        reverse("scoring:league_workbook") + "?season=all"
    )
    assert response.status_code == 200
    wb = openpyxl.load_workbook(io.BytesIO(b"".join(response.streaming_content)))
    assert wb.sheetnames == sheets
    standings = wb[sheets[1]]
    header = [cell.value for cell in standings[1]]
    assert headers in header
    games_played = header.index("Partidas")
    assert isinstance(standings.cell(row=2, column=games_played + 1).value, int)
    summary = wb[sheets[0]]
    date_cell = summary.cell(row=2, column=1)
    assert isinstance(date_cell.value, datetime.datetime | datetime.date)
    assert date_cell.number_format == "d/m/yyyy"
    assert standings.page_setup.paperSize == 9  # A4
    # The guest and the count of days in the language too.
    words = {cell for sheet in wb for row in sheet.iter_rows(values_only=True) for cell in row}
    guest = "Gus Guest (visitante)"  # says nothing of whether the guest is a man or a woman
    assert any(isinstance(w, str) and guest in w for w in words)
    assert not any(isinstance(w, str) and "(guest)" in w for w in words)
    days = "jornadas" if code == "es" else "encontros"
    assert any(isinstance(w, str) and w.startswith("Total, ") and w.endswith(days) for w in words)


# ---------------------------------------------------------------------------------------
# The officers' pages and the variants' words


def test_the_officers_pages_in_spanish_and_portuguese(world, settings):
    officer = persona_client(world, "officer")
    modern = RuleSet.objects.get(slug="modern-american")
    pages = {
        "es": [
            (reverse("members:people"), ("Agregar un socio", "Unificar dos fichas")),
            (reverse("members:seating", args=[world.day.pk]), ("Ubicación", "Ronda 1")),
            (reverse("members:import"), ("Importar un padrón de socios", "Vista previa")),
            (reverse("scoring:rulesets"), ("Reglamentos", "Canasta americana moderna")),
            (
                reverse("scoring:ruleset_edit", args=[modern.pk]),
                ("Premio por canasta limpia", "Otras clases de canasta", "Copiarlo para cambiarlo"),
            ),
            (reverse("scoring:day_rules", args=[world.day.pk]), ("Reglamento de esta jornada",)),
            (
                reverse("club_settings"),
                ("Zona horaria", "Reglamento por defecto", "Guardar los ajustes"),
            ),
        ],
        "pt-br": [
            (reverse("members:people"), ("Adicionar um sócio", "Unificar duas fichas")),
            (reverse("members:seating", args=[world.day.pk]), ("Distribuição", "Rodada 1")),
            (reverse("scoring:rulesets"), ("Canastra americana moderna", "Mão e pé")),
            (
                reverse("scoring:ruleset_edit", args=[modern.pk]),
                ("Bônus por canastra limpa", "Outros tipos de canastra", "coringa = 50"),
            ),
            (
                reverse("club_settings"),
                ("Fuso horário", "Regras padrão", "Salvar as configurações"),
            ),
        ],
    }
    for code, visits in pages.items():
        speak(settings, code)
        for url, words in visits:
            body = page(officer, url)
            for word in words:
                assert word in body, (code, url, word)


def test_the_variants_words_in_spanish_and_portuguese():
    """The kinds of canasta of the variants, counted and named as players say them."""
    from scoring.engine import PRESETS
    from scoring.engine.validate.canastas import count_words
    from scoring.engine.validate.totals import unfinished_words

    modern, bolivia = PRESETS["modern-american"], PRESETS["bolivia"]
    sevens = next(kind for kind in modern.kinds if kind.key == "sevens")
    escalera = next(kind for kind in bolivia.kinds if kind.key == "sequence")
    counts = [1 if kind.key in ("natural", "sevens") else 0 for kind in modern.kinds]
    expected = {
        "es": ("1 canasta de sietes y 1 canasta limpia", "2 canastas de sietes sin completar"),
        "pt-br": ("1 canastra de setes e 1 canastra limpa", "2 canastras de setes incompletas"),
    }
    for code, (canastas, unfinished) in expected.items():
        with translation.override(code):
            assert count_words(modern.kinds, counts) == canastas
            assert unfinished_words(sevens, 2) == unfinished
            assert escalera.plural == ("escaleras" if code == "es" else "canastras de sequência")
    assert sevens.plural == "canastas of sevens"  # English outside a page


def test_a_roster_refusal_in_spanish_and_portuguese():
    """The roster upload's refusals (too large, too many rows, a damaged workbook) are
    in the officer's language, numbers too."""
    from members.roster.limits import RosterError, check_upload_size, too_many_rows
    from members.roster.read import read_roster

    with translation.override("es"):
        assert "más de 20.000 filas" in str(too_many_rows())
        with pytest.raises(RosterError, match=r"demasiado grande \(6,0 MB\).*Guarde solo"):
            check_upload_size(6 * 1024 * 1024)
    with translation.override("pt-br"), pytest.raises(RosterError, match="danificado"):
        read_roster("roster.xlsx", b"PK\x03\x04 not really a workbook")

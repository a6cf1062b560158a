"""Room codes nobody can lock out (issues 13 and 22): a guesser is stopped by its own
tries (device cookie, session; cookie-less tries per address, among themselves), while
every other phone gets in at once, also with the cache down. The same probes through a
real nginx in front of gunicorn: clubsite/tests/test_addresses.py."""

import logging

import pytest
from django.core import signing
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from clubsite import devices as device_cookie
from members.models import ROOM_CODE_ALPHABET, ROOM_CODE_LENGTH, ClubDay, Table, new_room_code
from scoring.play import devices, rooms

ROOM = "/room/"
CODE = "KXMA-7QPB"


@pytest.fixture(autouse=True)
def _fresh_cache(db):
    """The counters live in the shared (database) cache: empty it around each test."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def day(db):
    """Today's club day: table links and room codes end at the end of the day's date,
    so the open day these tests score must be today (in the club's time zone)."""
    return ClubDay.objects.create(date=timezone.localdate(), title="Thursday")


@pytest.fixture
def table8(table):
    """The table of the play fixtures, with a new eight-character code."""
    Table.objects.filter(pk=table.pk).update(room_code=CODE.replace("-", ""))
    return table


def fresh_phone():
    """A new phone on the club's network: it opens the site (which gives it its device
    cookie) before typing a code."""
    phone = Client()
    phone.get(ROOM)
    return phone


def post_code(client, code):
    return client.post(reverse("scoring:room"), {"room_code": code})


def test_new_codes_have_eight_characters(db):
    code = new_room_code()
    assert ROOM_CODE_LENGTH == 8 and len(code) == 8
    assert set(code) <= set(ROOM_CODE_ALPHABET)


@pytest.mark.parametrize("typed", ["KXMA-7QPB", "kxma7qpb", " kxma 7qpb ", "Kxma-7Qpb"])
def test_eight_character_code_typed_any_way(table8, typed):
    response = post_code(Client(), typed)
    assert response.status_code == 302
    assert response["Location"] == reverse("scoring:table", args=[table8.pk])


def test_cards_show_two_groups_of_four(officer_client, table8):
    page = officer_client.get(reverse("scoring:table_cards", args=[table8.round.day_id]))
    assert b"KXMA-7QPB" in page.content


def test_thousand_cookieless_wrong_codes_leave_fresh_phones_in(table8):
    """The issue's script: wrong codes without cookies from one address; then phones on
    the same address, that first open the site, type the right code and get in."""
    script = Client()
    for _ in range(1000):
        script.cookies.clear()
        post_code(script, "BBBB-BBBB")
    script.cookies.clear()
    refused = post_code(script, CODE)
    assert refused.status_code == 200 and b"from your network" in refused.content
    for _ in range(3):
        response = post_code(fresh_phone(), CODE)
        assert response.status_code == 302, response.content.decode()[:2000]


def test_device_that_erred_waits_another_does_not(table8):
    guesser, other = fresh_phone(), fresh_phone()
    for _ in range(rooms.ROOM_CODE_TRIES):
        post_code(guesser, "BBBB-BBBB")
    guesser.cookies.pop("sessionid", None)  # a new session: the device still waits
    response = post_code(guesser, CODE)
    assert response.status_code == 200
    text = response.content.decode()
    assert "Too many wrong codes" in text and "10 minutes" in text and "QR code" in text
    assert post_code(other, CODE).status_code == 302


def test_session_also_counts_when_the_cookie_is_dropped(table8):
    phone = fresh_phone()
    for _ in range(rooms.ROOM_CODE_TRIES):
        phone.cookies.pop(device_cookie.DEVICE_COOKIE, None)
        post_code(phone, "BBBB-BBBB")
    assert b"Too many wrong codes" in post_code(phone, CODE).content


def test_address_limit_stops_a_cookieless_guesser(table8):
    script = Client()
    for _ in range(devices.ROOM_CODE_TRIES_PER_ADDRESS):
        script.cookies.clear()
        post_code(script, "BBBB-BBBB")
    script.cookies.clear()
    response = post_code(script, CODE)
    assert response.status_code == 200
    assert b"from your network" in response.content
    assert script.get(reverse("scoring:table", args=[table8.pk])).status_code == 404


def test_a_phone_from_another_address_is_not_touched(table8):
    script = Client()
    for _ in range(devices.ROOM_CODE_TRIES_PER_ADDRESS):
        script.cookies.clear()
        post_code(script, "BBBB-BBBB")
    assert post_code(Client(REMOTE_ADDR="10.0.0.9"), CODE).status_code == 302


def test_a_phone_always_gets_a_device_cookie_whatever_its_address_did(db):
    """Issue 22: 300 front pages from one address used to spend its new cookies for the
    hour. Now nobody's requests decide whether another phone may have one."""
    for _ in range(305):
        assert device_cookie.DEVICE_COOKIE in Client().get("/").cookies
    script = Client()
    for _ in range(devices.ROOM_CODE_TRIES_PER_ADDRESS + 5):
        script.cookies.clear()
        assert device_cookie.DEVICE_COOKIE in post_code(script, "BBBB-BBBB").cookies


def test_330_requests_from_an_address_leave_its_new_phones_in(table8):
    """The issue's probe in-process: 300 front pages, then 30 wrong codes without a
    cookie, from one address; 4 new phones there type the right room code and board
    code and get in (0 of 4 did)."""
    day = table8.round.day
    ClubDay.objects.filter(pk=day.pk).update(board_code="PQRT3467")
    for _ in range(300):
        Client().get("/")
    script = Client()
    for _ in range(30):
        script.cookies.clear()
        post_code(script, "BBBB-BBBB")
    for _ in range(4):
        assert post_code(fresh_phone(), CODE).status_code == 302
        board = Client()
        board.get(reverse("scoring:board_entry"))
        response = board.post(reverse("scoring:board_entry"), {"board_code": "PQRT-3467"})
        assert response.status_code == 302, response.content.decode()[:2000]


def test_a_script_that_takes_new_cookies_gets_only_each_cookies_own_tries(table8):
    """Dropping cookies gets new ones, but every new one starts with the same few tries
    and stops after them, without touching the phones beside it."""
    for _ in range(3):
        script = fresh_phone()
        for _ in range(rooms.ROOM_CODE_TRIES):
            assert b"No table has" in post_code(script, "BBBB-BBBB").content
        assert b"Too many wrong codes were typed on this device" in post_code(script, CODE).content
    assert post_code(fresh_phone(), CODE).status_code == 302


def test_a_spoofed_forwarded_for_is_not_believed_without_a_proxy(table8):
    """No proxy configured (TRUSTED_PROXY_COUNT=0): a cookie-less script that names a
    new address on every try is still counted under its own."""
    for i in range(devices.ROOM_CODE_TRIES_PER_ADDRESS):
        post_code(Client(HTTP_X_FORWARDED_FOR=f"203.0.113.{i}"), "BBBB-BBBB")
    spoofed = Client(HTTP_X_FORWARDED_FOR="198.51.100.7")
    assert b"from your network" in post_code(spoofed, CODE).content


class DownCache:
    """A cache that cannot be reached, failing soft: reads give nothing, writes keep
    nothing, ``incr`` fails."""

    def get(self, key, default=None):
        return default

    def add(self, *args, **kwargs):
        return False

    def set(self, *args, **kwargs):
        return None

    def touch(self, *args, **kwargs):
        return False

    def incr(self, key, delta=1):
        raise ValueError(f"Key '{key}' not found.")


class BrokenCache(DownCache):
    """A cache whose every call raises, as Django's Redis cache does with Redis gone."""

    def _fail(self, *args, **kwargs):
        raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    get = add = set = touch = incr = _fail


@pytest.fixture
def cache_down(monkeypatch):
    def down(kind=DownCache):
        monkeypatch.setattr(devices, "cache", kind())
        monkeypatch.setattr(devices, "_cache_down_until", 0.0)

    yield down
    devices._cache_down_until = 0.0


@pytest.mark.parametrize("kind", [DownCache, BrokenCache])
def test_with_the_cache_down_phones_with_a_cookie_are_never_refused(
    table8, cache_down, kind, caplog
):
    phones = [fresh_phone() for _ in range(6)]
    cache_down(kind)
    with caplog.at_level(logging.ERROR, logger="scoring.play.devices"):
        for phone in phones:
            for _ in range(rooms.ROOM_CODE_TRIES - 1):
                response = post_code(phone, "BBBB-BBBB")
                assert response.status_code == 200 and b"No table has" in response.content
            assert post_code(phone, CODE).status_code == 302
        # A phone that had waited, or a new one: nothing stored can refuse it now.
        assert post_code(fresh_phone(), CODE).status_code == 302
    # The outage is logged once, not once per request.
    outage = [r for r in caplog.records if r.name == "scoring.play.devices"]
    assert len(outage) == 1 and "cannot be reached" in outage[0].getMessage()


@pytest.mark.parametrize("kind", [DownCache, BrokenCache])
def test_with_the_cache_down_cookieless_tries_are_refused_in_plain_words(table8, cache_down, kind):
    cache_down(kind)
    script = Client()
    response = post_code(script, CODE)
    assert response.status_code == 200
    assert b"could not be checked just now" in response.content
    assert b"Reload this page" in response.content
    # The answer gives the phone a cookie: typed again, the code is checked.
    assert post_code(script, CODE).status_code == 302


def test_device_cookie_is_signed_httponly_and_lax(db):
    cookie = Client().get(ROOM).cookies[device_cookie.DEVICE_COOKIE]
    assert cookie["httponly"] and cookie["samesite"] == "Lax"
    data = signing.loads(cookie.value, salt=device_cookie.DEVICE_SALT)
    assert isinstance(data["id"], str) and isinstance(data["t"], float)


def test_a_forged_device_cookie_counts_as_none(table8):
    script = Client()
    script.cookies[device_cookie.DEVICE_COOKIE] = "forged"
    for _ in range(devices.ROOM_CODE_TRIES_PER_ADDRESS):
        script.cookies.pop("sessionid", None)
        script.cookies[device_cookie.DEVICE_COOKIE] = "forged"
        post_code(script, "BBBB-BBBB")
    script.cookies.pop("sessionid", None)
    script.cookies[device_cookie.DEVICE_COOKIE] = "forged"
    assert b"from your network" in post_code(script, CODE).content


def test_an_old_device_cookie_counts_as_none(table8):
    old = signing.dumps({"id": "old-phone", "t": 1.0}, salt=device_cookie.DEVICE_SALT)
    script = Client()
    script.cookies[device_cookie.DEVICE_COOKIE] = old
    for _ in range(devices.ROOM_CODE_TRIES_PER_ADDRESS):
        script.cookies.pop("sessionid", None)
        script.cookies[device_cookie.DEVICE_COOKIE] = old
        post_code(script, "BBBB-BBBB")
    script.cookies.pop("sessionid", None)
    script.cookies[device_cookie.DEVICE_COOKIE] = old
    assert b"from your network" in post_code(script, CODE).content

"""Sign-in at the door: services and the page, with and without htmx."""

import pytest
from django.urls import reverse

from clubsite.clock import clock
from members.models import Person, SignIn
from members.services.days import close_day
from members.services.door import add_guest, sign_in, undo_sign_in
from members.services.errors import GuestNameTaken, SignInRefused
from members.tests.factories import GuestFactory, MemberFactory, SignInFactory

HTMX = {"HTTP_HX_REQUEST": "true"}


def htmx_to(target):
    return {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": target}


# ----------------------------------------------------------------------------- services


def test_sign_in_a_member(day, ann, officer_user):
    record = sign_in(day, ann, card_shown=True, by=officer_user)
    assert record.card_shown and record.signed_in_by == officer_user
    assert record.brought_by is None


def test_signing_in_twice_is_refused_kindly(day, ann):
    first = sign_in(day, ann)
    with pytest.raises(SignInRefused) as refusal:
        sign_in(day, ann)
    when = clock(first.signed_in_at)
    assert str(refusal.value) == f"Ann Adams is already signed in (at {when})."
    assert SignIn.objects.count() == 1


def test_a_closed_day_refuses_sign_ins(day, ann):
    close_day(day)
    with pytest.raises(SignInRefused, match="closed"):
        sign_in(day, ann)


def test_a_lapsed_member_can_still_be_signed_in(day):
    lapsed = MemberFactory(status=Person.Status.LAPSED)
    assert sign_in(day, lapsed).pk


def test_a_new_guest_is_created_on_the_spot(day, ann):
    record = add_guest(day, " Gina ", "Guest", ann)
    guest = record.person
    assert guest.is_guest and guest.brought_by == ann and record.brought_by == ann
    assert (guest.first_name, guest.last_name) == ("Gina", "Guest")


def test_a_guest_with_the_same_name_is_offered_not_doubled(day, ann):
    existing = GuestFactory(first_name="Gina", last_name="Guest")
    with pytest.raises(GuestNameTaken) as refusal:
        add_guest(day, "gina", "GUEST", ann)
    assert refusal.value.existing == [existing]
    record = add_guest(day, "Gina", "Guest", ann, allow_same_name=True)
    assert record.person != existing


def test_an_existing_guest_signs_in_with_a_member(day, ann):
    guest = GuestFactory()
    record = sign_in(day, guest, brought_by=ann)
    assert record.brought_by == ann
    # Without naming the member, the one who first brought them is used.
    other_day = type(day).objects.create(date=day.date.replace(day=20))
    assert sign_in(other_day, guest).brought_by == guest.brought_by


def test_a_guest_cannot_bring_a_guest(day):
    guest, other = GuestFactory(), GuestFactory()
    with pytest.raises(SignInRefused, match="guests come with a member"):
        sign_in(day, guest, brought_by=other)


def test_undo_a_sign_in(day, ann):
    record = sign_in(day, ann)
    assert "undone" in undo_sign_in(record)
    assert not SignIn.objects.exists()


def test_undo_refused_while_their_guest_is_signed_in(day, ann):
    sign_in(day, ann)
    add_guest(day, "Gina", "Guest", ann)
    with pytest.raises(SignInRefused, match="brought Gina Guest"):
        undo_sign_in(SignIn.objects.get(person=ann))


def test_visits_are_counted_from_sign_ins(day, ann):
    guest = GuestFactory()
    SignInFactory(day=day, person=guest, brought_by=ann)
    other = type(day).objects.create(date=day.date.replace(day=26))
    SignInFactory(day=other, person=guest, brought_by=ann)
    assert Person.objects.with_visits().get(pk=guest.pk).visits == 2


# ----------------------------------------------------------------------------- the page


def test_door_page_search_without_javascript(officer_client, day, ann, bob):
    response = officer_client.get(reverse("members:signin", args=[day.pk]), {"q": "ann"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "Ann Adams" in page and "Bob Brown" not in page.split("Who is in")[0]
    assert "Sign in · card shown" in page
    assert "<html" in page


def test_door_search_with_htmx_returns_only_the_results(officer_client, day, ann):
    url = reverse("members:signin", args=[day.pk])
    response = officer_client.get(url, {"q": "1001"}, **htmx_to("results"))
    page = response.content.decode()
    assert "Ann Adams" in page and "<html" not in page and "Who is in" not in page


def test_search_by_number_prefix_and_name_parts(officer_client, day, ann, bob):
    url = reverse("members:signin", args=[day.pk])
    page = officer_client.get(url, {"q": "100"}, **htmx_to("results")).content.decode()
    assert "Ann Adams" in page and "Bob Brown" in page
    page = officer_client.get(url, {"q": "adams, an"}, **htmx_to("results")).content.decode()
    assert "Ann Adams" in page and "Bob Brown" not in page
    page = officer_client.get(url, {"q": "zzz"}, **htmx_to("results")).content.decode()
    assert "Nobody found" in page


def test_sign_in_without_javascript_redirects_with_a_message(officer_client, day, ann):
    url = reverse("members:signin_person", args=[day.pk])
    response = officer_client.post(url, {"person": ann.pk, "card_shown": "true"}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("members:signin", args=[day.pk])
    assert "Ann Adams signed in." in response.content.decode()
    assert SignIn.objects.get().card_shown is True


def test_sign_in_with_htmx_returns_message_and_list(officer_client, day, ann):
    url = reverse("members:signin_person", args=[day.pk])
    response = officer_client.post(url, {"person": ann.pk, "card_shown": "false"}, **HTMX)
    page = response.content.decode()
    assert response.status_code == 200
    assert "Ann Adams signed in. No card shown." in page
    assert 'id="who-is-in"' in page and 'hx-swap-oob="true"' in page
    assert "<html" not in page
    assert SignIn.objects.get().card_shown is False


def test_signing_in_twice_on_the_page_is_refused_kindly(officer_client, day, ann):
    SignInFactory(day=day, person=ann)
    url = reverse("members:signin_person", args=[day.pk])
    page = officer_client.post(url, {"person": ann.pk}, **HTMX).content.decode()
    assert "Ann Adams is already signed in (at" in page
    # Another device signed Ann in: this one's list is redrawn to show her, the search
    # box keeps what was typed.
    assert 'id="who-is-in"' in page and "hx-swap-oob" in page
    assert page.count("Ann Adams") >= 2
    assert 'id="door-search"' not in page
    response = officer_client.post(url, {"person": ann.pk}, follow=True)
    assert "Ann Adams is already signed in (at" in response.content.decode()


def test_already_signed_in_shows_in_the_results(officer_client, day, ann):
    SignInFactory(day=day, person=ann)
    url = reverse("members:signin", args=[day.pk])
    page = officer_client.get(url, {"q": "ann"}, **htmx_to("results")).content.decode()
    assert "Already signed in at" in page and "Sign in · card shown" not in page


def test_lapsed_member_is_flagged(officer_client, day):
    lapsed = MemberFactory(first_name="Liz", last_name="Lapse", status=Person.Status.LAPSED)
    url = reverse("members:signin", args=[day.pk])
    page = officer_client.get(url, {"q": "liz"}, **htmx_to("results")).content.decode()
    assert "Membership lapsed" in page
    url = reverse("members:signin_person", args=[day.pk])
    page = officer_client.post(url, {"person": lapsed.pk}, **HTMX).content.decode()
    assert "membership lapsed" in page


def test_closed_day_refuses_on_the_page(officer_client, day, ann):
    close_day(day)
    page = officer_client.get(reverse("members:signin", args=[day.pk])).content.decode()
    assert "This club day is closed" in page and 'name="q"' not in page
    url = reverse("members:signin_person", args=[day.pk])
    page = officer_client.post(url, {"person": ann.pk}, **HTMX).content.decode()
    assert "is closed" in page
    assert not SignIn.objects.exists()


def test_new_guest_on_the_page(officer_client, day, ann):
    SignInFactory(day=day, person=ann)
    url = reverse("members:signin_guest", args=[day.pk])
    data = {"first_name": "Gina", "last_name": "Guest", "brought_by": ann.pk}
    page = officer_client.post(url, data, **HTMX).content.decode()
    assert "New guest Gina Guest signed in with Ann Adams" in page
    guest = Person.objects.get(first_name="Gina")
    assert guest.is_guest and SignIn.objects.get(person=guest).brought_by == ann


def test_new_guest_by_member_number_without_javascript(officer_client, day, ann):
    url = reverse("members:signin_guest", args=[day.pk])
    data = {"first_name": "Gina", "last_name": "", "brought_by_number": "1001"}
    response = officer_client.post(url, data, follow=True)
    assert "New guest Gina signed in with Ann Adams" in response.content.decode()


def test_new_guest_form_errors_are_shown(officer_client, day):
    url = reverse("members:signin_guest", args=[day.pk])
    page = officer_client.post(url, {"first_name": ""}, **HTMX).content.decode()
    assert "Check the guest form" in page and 'id="guest-panel"' in page
    response = officer_client.post(url, {"first_name": "Gina", "brought_by_number": "999"})
    assert response.status_code == 200
    assert "No member has the number or name “999”" in response.content.decode()
    assert not Person.objects.filter(first_name="Gina").exists()


def test_same_name_guest_is_offered_on_the_page(officer_client, day, ann):
    existing = GuestFactory(first_name="Gina", last_name="Guest")
    url = reverse("members:signin_guest", args=[day.pk])
    data = {"first_name": "Gina", "last_name": "Guest", "brought_by_number": "1001"}
    page = officer_client.post(url, data, **HTMX).content.decode()
    assert "already on file" in page
    assert f'name="person" value="{existing.pk}"' in page
    assert 'name="allow_same_name" value="true"' in page
    page = officer_client.post(url, {**data, "allow_same_name": "true"}, **HTMX).content.decode()
    assert "New guest Gina Guest signed in" in page
    assert Person.objects.filter(first_name="Gina").count() == 2


def test_existing_guest_found_by_name_and_signed_in(officer_client, day, ann):
    guest = GuestFactory(first_name="Greta", last_name="Garbo", brought_by=ann)
    url = reverse("members:signin", args=[day.pk])
    page = officer_client.get(url, {"q": "greta"}, **htmx_to("results")).content.decode()
    assert "Came with" in page and f'value="{ann.pk}"' in page
    url = reverse("members:signin_person", args=[day.pk])
    page = officer_client.post(url, {"person": guest.pk, "brought_by": ann.pk}, **HTMX)
    assert "signed in as the guest of Ann Adams" in page.content.decode()


def test_undo_on_the_page(officer_client, day, ann):
    record = SignInFactory(day=day, person=ann)
    # The list polls with hx-swap="outerHTML"; the undo form must not inherit it, or the
    # message area would be replaced instead of filled.
    page = officer_client.get(reverse("members:signin_list", args=[day.pk])).content.decode()
    undo_form = page[page.index("<form") : page.index(">", page.index("<form"))]
    assert 'hx-target="#door-message"' in undo_form and 'hx-swap="innerHTML"' in undo_form
    url = reverse("members:signin_undo", args=[day.pk, record.pk])
    page = officer_client.post(url, **HTMX).content.decode()
    assert "Sign-in of Ann Adams undone" in page and 'id="who-is-in"' in page
    assert not SignIn.objects.exists()
    response = officer_client.post(url, follow=True)  # again, without JavaScript
    assert "already undone" in response.content.decode()


def test_who_is_in_list_partial(officer_client, day, ann):
    SignInFactory(day=day, person=ann, card_shown=False)
    page = officer_client.get(reverse("members:signin_list", args=[day.pk])).content.decode()
    assert "Who is in: 1" in page and "no card" in page and "<html" not in page


def test_garbage_input_gets_a_message_not_a_500(officer_client, day):
    url = reverse("members:signin_person", args=[day.pk])
    response = officer_client.post(url, {"person": "abc"}, follow=True)
    assert response.status_code == 200 and "not found" in response.content.decode()
    response = officer_client.post(url, {"person": "99999"}, **HTMX)
    assert response.status_code == 200
    assert officer_client.get(reverse("members:signin", args=[99999])).status_code == 404
    assert officer_client.get(reverse("members:signin_person", args=[day.pk])).status_code == 405


def test_sign_in_list_query_budget(officer_client, day, django_assert_max_num_queries):
    url = reverse("members:signin", args=[day.pk])
    for _ in range(3):
        SignInFactory(day=day)
    officer_client.get(url)  # the login's first page: the menu asks once if it is a member's
    # 12, and the door's booked list with its people (issue 34's bookings), each person's
    # paid-until and the club's money settings (issue 34's lapsed mark): 15, whatever
    # the number signed in.
    with django_assert_max_num_queries(15) as few:
        officer_client.get(url, {"q": "First"})
    for _ in range(30):
        SignInFactory(day=day)
    guest_member = MemberFactory()
    SignInFactory(day=day, person=GuestFactory(brought_by=guest_member), brought_by=guest_member)
    with django_assert_max_num_queries(len(few.captured_queries)):
        response = officer_client.get(url, {"q": "First"})
    assert "Who is in: 34" in response.content.decode()


def test_undo_refused_on_a_closed_day(day, ann):
    record = sign_in(day, ann)
    close_day(day)
    with pytest.raises(SignInRefused, match="closed"):
        undo_sign_in(record)
    assert SignIn.objects.count() == 1


def test_new_guest_with_the_member_found_by_name(officer_client, day, ann, bob):
    url = reverse("members:signin_guest", args=[day.pk])
    page = officer_client.post(
        url, {"first_name": "Gil", "brought_by_number": "brown"}, **HTMX
    ).content.decode()
    assert "New guest Gil signed in with Bob Brown" in page
    MemberFactory(first_name="Bobby", last_name="Brownlow", membership_number="1003")
    page = officer_client.post(
        url, {"first_name": "Gus", "brought_by_number": "brown"}, **HTMX
    ).content.decode()
    assert "Several members match" in page and "Type the membership number" in page


def test_htmx_request_after_the_login_ran_out_goes_to_the_login_page(client, day):
    url = reverse("members:signin", args=[day.pk])
    response = client.get(
        url,
        {"q": "ann"},
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="results",
        HTTP_HX_CURRENT_URL=f"http://testserver{url}",
    )
    assert response.status_code == 200
    assert response["HX-Redirect"] == f"{reverse('login')}?next={url}"


def test_a_morning_time_ends_the_sentence_with_one_full_stop(officer_client, day, ann):
    """Django writes "7:02 a.m."; the sentence adds no second full stop."""
    import datetime

    from django.utils import timezone

    morning = timezone.make_aware(datetime.datetime.combine(day.date, datetime.time(7, 2)))
    SignIn.objects.filter(pk=SignInFactory(day=day, person=ann).pk).update(signed_in_at=morning)
    url = reverse("members:signin", args=[day.pk])
    page = officer_client.get(url, {"q": "ann"}, **htmx_to("results")).content.decode()
    assert f"Already signed in at {clock(morning)}</p>" in page
    assert clock(morning).endswith(".") and ".." not in page.replace("...", "")

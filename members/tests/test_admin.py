"""The admin: every members model is registered, its list searches and filters."""

import pytest
from django.contrib import admin
from django.urls import reverse

from members.draw import SIT_OUT
from members.models import ClubDay, MergeRecord, Person, Round, Seat, SignIn, Table
from members.services.merge import merge_people
from members.services.seating import draw_round
from members.tests.factories import MemberFactory, SignInFactory

MODELS = [Person, MergeRecord, ClubDay, SignIn, Round, Table, Seat]


@pytest.fixture
def admin_client_with_data(admin_client, day):
    for _ in range(4):
        SignInFactory(day=day)
    draw_round(day, SIT_OUT, seed=1)
    merge_people(MemberFactory(), MemberFactory())
    return admin_client


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_every_model_is_registered_with_search_and_filters(model):
    model_admin = admin.site._registry[model]
    assert model_admin.search_fields and model_admin.list_filter
    assert len(model_admin.list_display) > 1


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_admin_lists_open_and_search(admin_client_with_data, model):
    url = reverse(f"admin:members_{model._meta.model_name}_changelist")
    assert admin_client_with_data.get(url).status_code == 200
    assert admin_client_with_data.get(url, {"q": "First"}).status_code == 200


def test_person_history_in_admin(admin_client, ann):
    url = reverse("admin:members_person_history", args=[ann.pk])
    assert admin_client.get(url).status_code == 200


def test_the_admin_cannot_merge_by_setting_merged_into(admin_client):
    first, second = MemberFactory(), MemberFactory()
    url = reverse("admin:members_person_change", args=[first.pk])
    page = admin_client.get(url).content.decode()
    assert 'name="merged_into"' not in page  # shown, not editable
    data = {
        "kind": first.kind,
        "first_name": first.first_name,
        "last_name": first.last_name,
        "membership_number": first.membership_number,
        "status": first.status,
        "merged_into": second.pk,
    }
    admin_client.post(url, data)
    first.refresh_from_db()
    assert first.merged_into_id is None

from django.urls import path

from scoring.tourney.views import ladders, officer, phone, public

# In the "scoring" namespace (scoring/urls.py includes these).
urlpatterns = [
    path("days/<int:day_pk>/event/", officer.event_page, name="event"),
    path("days/<int:day_pk>/event/settings/", officer.event_edit, name="event_edit"),
    path("events/<int:pk>/clock/<slug:action>/", officer.event_action, name="event_action"),
    path("events/<int:pk>/ranking/", public.ranking, name="event_ranking"),
    path("events/<int:pk>/prizes/", public.prizes_view, name="event_prizes"),
    path("tables/<int:table_pk>/event-next/", phone.follow, name="event_follow"),
    path("tables/<int:table_pk>/event-here/", phone.arrive, name="event_arrive"),
    path("ladders/", ladders.ladder_list, name="ladders"),
    path("ladders/new/", ladders.ladder_edit, name="ladder_new"),
    path("ladders/<int:pk>/", ladders.ladder_view, name="ladder"),
    path("ladders/<int:pk>/edit/", ladders.ladder_edit, name="ladder_edit"),
]

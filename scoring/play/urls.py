"""Playing: room codes and table links, tables, games, hands, table cards, rule sets.

Included by scoring/urls.py under the `scoring` namespace.
"""

from django.urls import path

from scoring.play import views

urlpatterns = [
    path("room/", views.room, name="room"),
    path("t/<str:token>/", views.table_link, name="table_link"),
    path("tables/<int:table_pk>/", views.table, name="table"),
    path("tables/<int:table_pk>/start/", views.game_start, name="game_start"),
    path("games/<int:game_pk>/", views.game, name="game"),
    path("games/<int:game_pk>/hands/new/", views.hand_new, name="hand_new"),
    path("games/<int:game_pk>/hands/preview/", views.hand_preview, name="hand_preview"),
    path("games/<int:game_pk>/hands/undo/", views.hand_undo, name="hand_undo"),
    path("games/<int:game_pk>/hands/<int:number>/edit/", views.hand_edit, name="hand_edit"),
    path("games/<int:game_pk>/next/", views.next_game, name="next_game"),
    path("days/<int:day_pk>/table-cards/", views.table_cards, name="table_cards"),
    path("days/<int:day_pk>/rules/", views.day_rules, name="day_rules"),
    path("rules/", views.rulesets, name="rulesets"),
    path("rules/new/", views.ruleset_new, name="ruleset_new"),
    path("rules/<int:pk>/edit/", views.ruleset_edit, name="ruleset_edit"),
    path("rules/<int:pk>/default/", views.ruleset_default, name="ruleset_default"),
]

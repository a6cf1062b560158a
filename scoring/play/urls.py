"""Playing: room codes and table links, tables, games, hands, table cards, rule sets.

Included by scoring/urls.py under the `scoring` namespace.
"""

from django.urls import path

from scoring.play.views import confirmations, corrections, games, links, rulesets, table

urlpatterns = [
    path("room/", links.room, name="room"),
    path("t/<str:token>/", links.table_link, name="table_link"),
    path("tables/<int:table_pk>/", table.table, name="table"),
    path("tables/<int:table_pk>/start/", games.game_start, name="game_start"),
    path("tables/<int:table_pk>/phone/", links.phone_name, name="phone_name"),
    path("games/<int:game_pk>/", games.game, name="game"),
    path("games/<int:game_pk>/hands/new/", table.hand_new, name="hand_new"),
    path("games/<int:game_pk>/hands/preview/", table.hand_preview, name="hand_preview"),
    path("games/<int:game_pk>/hands/replace/", table.hand_replace, name="hand_replace"),
    path(
        "games/<int:game_pk>/failed-melds/<int:side>/",
        table.failed_meld,
        name="failed_meld",
    ),
    path(
        "games/<int:game_pk>/failed-melds/<int:side>/back/",
        table.failed_meld_back,
        name="failed_meld_back",
    ),
    path("games/<int:game_pk>/hands/detail/<int:side>/", table.hand_detail, name="hand_detail"),
    path("games/<int:game_pk>/hands/undo/", corrections.hand_undo, name="hand_undo"),
    path("games/<int:game_pk>/hands/<int:number>/edit/", corrections.hand_edit, name="hand_edit"),
    path(
        "games/<int:game_pk>/hands/<int:number>/confirm/",
        confirmations.hand_confirm,
        name="hand_confirm",
    ),
    path(
        "games/<int:game_pk>/hands/<int:number>/settle/",
        confirmations.hand_settle,
        name="hand_settle",
    ),
    path("games/<int:game_pk>/settle/", confirmations.game_settle_all, name="game_settle_all"),
    path("games/<int:game_pk>/keeper/", confirmations.game_keeper, name="game_keeper"),
    path("games/<int:game_pk>/next/", games.next_game, name="next_game"),
    path("days/<int:day_pk>/table-cards/", links.table_cards, name="table_cards"),
    path("days/<int:day_pk>/rules/", rulesets.day_rules, name="day_rules"),
    path("rules/", rulesets.rulesets, name="rulesets"),
    path("rules/new/", rulesets.ruleset_new, name="ruleset_new"),
    path("rules/<int:pk>/edit/", rulesets.ruleset_edit, name="ruleset_edit"),
    path("rules/<int:pk>/default/", rulesets.ruleset_default, name="ruleset_default"),
]

"""Results pages (namespace ``scoring``): standings, day results, records, a player's
page, seasons, the standings settings and the league workbook."""

from django.urls import path

from scoring.results import views as v

urlpatterns = [
    path("standings/", v.standings_view, name="standings"),
    path("standings/partnerships/", v.partnerships_view, name="partnerships"),
    path("standings/settings/", v.standings_settings_view, name="standings_settings"),
    path("standings/league.xlsx", v.league_workbook_view, name="league_workbook"),
    path("results/", v.day_results_view, name="day_results"),
    path("results/<int:pk>/", v.day_result_view, name="day_result"),
    path("records/", v.records_view, name="records"),
    path("players/<int:pk>/", v.player_view, name="player"),
    path("seasons/", v.seasons_view, name="seasons"),
    path("seasons/new/", v.season_edit_view, name="season_new"),
    path("seasons/<int:pk>/edit/", v.season_edit_view, name="season_edit"),
]

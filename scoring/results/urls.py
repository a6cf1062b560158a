"""Results pages (namespace ``scoring``): standings, day results, records, a player's
page, seasons, the standings settings and the league workbook."""

from django.urls import path

from scoring.results.views import days, exports, player, records, seasons, standings

urlpatterns = [
    path("standings/", standings.standings_view, name="standings"),
    path("standings/partnerships/", standings.partnerships_view, name="partnerships"),
    path("standings/settings/", standings.standings_settings_view, name="standings_settings"),
    path("standings/league.xlsx", exports.league_workbook_view, name="league_workbook"),
    path("results/", days.day_results_view, name="day_results"),
    path("results/<int:pk>/", days.day_result_view, name="day_result"),
    path("records/", records.records_view, name="records"),
    path("players/<int:pk>/", player.player_view, name="player"),
    path("seasons/", seasons.seasons_view, name="seasons"),
    path("seasons/new/", seasons.season_edit_view, name="season_new"),
    path("seasons/<int:pk>/edit/", seasons.season_edit_view, name="season_edit"),
]

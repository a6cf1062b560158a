"""Results pages (namespace ``scoring``): standings, day results, records, a player's
page, seasons, the standings settings, the league workbook, the room board, the day
sheet, the results e-mail, and the club's background work."""

from django.urls import path

from scoring.results.views import (
    board,
    days,
    exports,
    mail,
    player,
    records,
    seasons,
    standings,
    work,
)

urlpatterns = [
    path("standings/", standings.standings_view, name="standings"),
    path("standings/partnerships/", standings.partnerships_view, name="partnerships"),
    path("standings/settings/", standings.standings_settings_view, name="standings_settings"),
    path("standings/league.xlsx", exports.league_workbook_view, name="league_workbook"),
    path("standings/workbooks/<int:pk>/", exports.workbook_view, name="workbook"),
    path(
        "standings/workbooks/<int:pk>/league.xlsx",
        exports.workbook_file_view,
        name="workbook_file",
    ),
    path("results/", days.day_results_view, name="day_results"),
    path("results/<int:pk>/", days.day_result_view, name="day_result"),
    path("results/<int:pk>/sheet/", mail.day_sheet_view, name="day_sheet"),
    path("results/<int:pk>/send/", mail.send_results_view, name="send_results"),
    path("results/<int:pk>/mail/", mail.day_mail_view, name="day_mail"),
    path("results/unsubscribe/<str:token>/", mail.unsubscribe_view, name="results_unsubscribe"),
    path("records/", records.records_view, name="records"),
    path("players/<int:pk>/", player.player_view, name="player"),
    path("seasons/", seasons.seasons_view, name="seasons"),
    path("seasons/new/", seasons.season_edit_view, name="season_new"),
    path("seasons/<int:pk>/edit/", seasons.season_edit_view, name="season_edit"),
    path("work/", work.work_view, name="work"),
    path("board/", board.board_entry, name="board_entry"),
    path("board/code/<str:code>/", board.board_link, name="board_link"),
    path("board/<int:pk>/", board.board_view, name="board"),
    path("board/<int:pk>/live/", board.board_live, name="board_live"),
]

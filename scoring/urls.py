from django.urls import include, path

app_name = "scoring"

# Two groups of pages: playing (rule sets, tables, games, hands) and results
# (standings, day results, records, a player's page, exports).
urlpatterns = [
    path("", include("scoring.play.urls")),
    path("", include("scoring.results.urls")),
    path("", include("scoring.tourney.urls")),
]

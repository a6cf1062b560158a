from django.urls import include, path

app_name = "scoring"

# Two groups of pages: playing (rule sets, tables, games, hands) and results
# (standings, day results, records, a player's page, exports).
urlpatterns = [
    path("", include("scoring.urls_play")),
    path("", include("scoring.urls_results")),
]

"""Standings and statistics: the queries behind the results pages and the league workbook.

Everything here reads the per-game statistics that ``scoring.play.services`` stores on
each ``GameTeam`` (totals, points against, canastas, red threes, going out...), so a
season's standings are ONE aggregate query, never a query per person or a loop over
hands. Only finished games count. The pages (``scoring.results.views``) and the workbook
(``scoring.results.exports``) call the same functions, so every total agrees.

The rooms:

- :mod:`.measures` — the measures a row can be ranked by, the default list, the
  statistics summed (pure);
- :mod:`.periods` — a period (season, dates, all games), the seasons, the one date-range
  filter (:func:`date_range`) and the finished games and seats of a period;
- :mod:`.ranking` — tie-aware positions (1, 1, 3), written once, and the ranking of
  rows by ordered measures (pure);
- :mod:`.individual` — individual and partnership rows and the ranked standings;
- :mod:`.days` — the club days, a day's games and its top scores;
- :mod:`.player` — a player's games, charts, opponents, partners and bests;
- :mod:`.records` — the club records.

The names below are re-exported so callers keep ``standings.<name>``.
"""

from scoring.results.standings.days import (
    day_games,
    days_with_results,
    team_names,
    team_prefetch,
    top_scores,
)
from scoring.results.standings.individual import (
    Standings,
    individual,
    latest_ratings,
    partnership_standings,
    partnerships,
    ranking_settings,
    standings,
)
from scoring.results.standings.measures import (
    DEFAULT_MEASURES,
    DEFAULT_MIN_GAMES,
    MEASURES,
    TEAM_SUMS,
    Measure,
    clean_measures,
    measures_label,
)
from scoring.results.standings.periods import (
    ALL_GAMES,
    Period,
    current_season,
    date_range,
    default_period,
    finished_games,
    finished_players,
    overlapping_seasons,
    season_period,
)
from scoring.results.standings.player import (
    opponents,
    partners,
    personal_bests,
    player_games,
    rating_series,
    score_series,
)
from scoring.results.standings.ranking import positions, rank, set_positions, split_and_rank
from scoring.results.standings.records import (
    RECORD_LIMIT,
    four_red_threes,
    highest_games,
    highest_hands,
    most_canastas,
    most_games_in_a_season,
    winning_streaks,
)

__all__ = [
    "ALL_GAMES",
    "DEFAULT_MEASURES",
    "DEFAULT_MIN_GAMES",
    "MEASURES",
    "RECORD_LIMIT",
    "TEAM_SUMS",
    "Measure",
    "Period",
    "Standings",
    "clean_measures",
    "current_season",
    "date_range",
    "day_games",
    "days_with_results",
    "default_period",
    "finished_games",
    "finished_players",
    "four_red_threes",
    "highest_games",
    "highest_hands",
    "individual",
    "latest_ratings",
    "measures_label",
    "most_canastas",
    "most_games_in_a_season",
    "opponents",
    "overlapping_seasons",
    "partners",
    "partnership_standings",
    "partnerships",
    "personal_bests",
    "player_games",
    "positions",
    "rank",
    "ranking_settings",
    "rating_series",
    "score_series",
    "season_period",
    "set_positions",
    "split_and_rank",
    "standings",
    "team_names",
    "team_prefetch",
    "top_scores",
    "winning_streaks",
]

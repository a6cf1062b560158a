"""django-tables2 tables of every results listing (sortable, paginated) and their CSV.

The rooms:

- :mod:`.base` — what every table shares: links to players and days, the number, rank,
  date and player columns, ``link_players`` for visitors, the CSV download;
- :mod:`.standings` — players and partnerships, ranked;
- :mod:`.days` — the club days, a day's games, its top scores;
- :mod:`.player` — a player's games, partners and opponents;
- :mod:`.records` — the club records;
- :mod:`.seasons` — the officers' list of seasons.

Standings-type tables take lists of dict rows and sort them in Python; history tables
take querysets and sort in SQL. The names below are re-exported so callers may keep
``tables.<name>``.
"""

from scoring.results.tables.base import (
    csv_response,
    day_url,
    people_links,
    person_link,
    player_url,
)
from scoring.results.tables.days import DayGamesTable, DayTable, TopScoresTable
from scoring.results.tables.player import OpponentsTable, PartnersTable, PlayerGamesTable
from scoring.results.tables.records import (
    FourRedThreesTable,
    HighestGameTable,
    HighestHandTable,
    MostCanastasTable,
    SeasonGamesTable,
    StreakTable,
)
from scoring.results.tables.seasons import SeasonTable
from scoring.results.tables.standings import PartnershipTable, StandingsTable

__all__ = [
    "DayGamesTable",
    "DayTable",
    "FourRedThreesTable",
    "HighestGameTable",
    "HighestHandTable",
    "MostCanastasTable",
    "OpponentsTable",
    "PartnersTable",
    "PartnershipTable",
    "PlayerGamesTable",
    "SeasonGamesTable",
    "SeasonTable",
    "StandingsTable",
    "StreakTable",
    "TopScoresTable",
    "csv_response",
    "day_url",
    "people_links",
    "person_link",
    "player_url",
]

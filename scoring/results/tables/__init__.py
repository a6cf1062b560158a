"""django-tables2 tables of every results listing (sortable, paginated) and their CSV.

The rooms:

- :mod:`.base` — what every table shares: the base table (drawn by
  ``results/table.html``, as labelled cards on a phone), links to players and days, the
  number, rank, date and player columns, ``link_players`` for visitors, the CSV download;
- :mod:`.standings` — players and partnerships, ranked;
- :mod:`.days` — the club days, a day's games, its top scores;
- :mod:`.player` — a player's games, partners and opponents;
- :mod:`.records` — the club records;
- :mod:`.seasons` — the officers' list of seasons.

Standings-type tables take lists of dict rows and sort them in Python; history tables
take querysets and sort in SQL. Import each table from its module.
"""

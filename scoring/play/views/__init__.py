"""Scoring at the table: room codes and table links, the table page, entering,
previewing, correcting and undoing hands, starting games, table cards, rule sets.

Views stay thin: parse, check access (`scoring.play.access`), call a service
(`scoring.play.services`, the only code that writes scores), render. No view computes a
score: the engine does, through the services or `services.preview_hand`.

The rooms (``scoring/play/urls.py`` names each view by its room; nothing is re-exported
here, so ``views.table`` and ``views.rulesets`` stay the modules of those names):

- ``links``: the room-code box, a table's secret link, the printable table cards
- ``table``: the table page, saving the next hand, failed melds, the live preview
- ``corrections``: correcting an earlier hand, undoing the last one
- ``confirmations``: the other team confirming or disputing a hand, an officer settling it
- ``games``: a game's page, starting a game, the next game's partners
- ``rulesets``: rule sets (list, copy, edit, club default) and a club day's rules
- ``display``: what every game page shows, loaded in a fixed number of queries
- ``preview``: the preview panel of the hand form
- ``club_settings``: the club's settings page (its own fields and its game settings)
"""

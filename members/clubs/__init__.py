"""The club, in one place: its models (:mod:`.models`: ``Club``, ``ClubRole``,
``ClubSlugRedirect``, app label ``members``), the scope every query of its data runs in
(:mod:`.scope`, :mod:`.history`), the commands on one club (:mod:`.commands`), which club
a request is for (:mod:`.middleware`, :mod:`.addresses`), the reader's language
(:mod:`.languages`), the front page and the site's pages about clubs (:mod:`.front`,
:mod:`.views`), the installed app (:mod:`.pwa`), making, moving and signing up a club
(:mod:`.services`, :mod:`.moves`, :mod:`.signup`, :mod:`.officers`) and a club as one
file (:mod:`.portable`, :mod:`.importer`). It imports nothing of ``scoring``: scoring
answers ``members.signals.club_created``, and owns the club's settings page."""

"""A club's background jobs other than the results e-mail and the workbook: the
roster import's apply step, a rebuild of the totals and ratings, a club's backup.

Each is a :class:`~members.jobs.models.ClubJob` row (what, who asked, when, where it
has got, what came of it) and a task of Django's Tasks framework that carries the row's
id (:mod:`members.jobs.runner`: ask once per key, claim once, retry what can fail for a
while, record the outcome in plain words). The officers' "Background work" page lists
them with the club's workbooks and results e-mails (``scoring.results.views.work``).
"""

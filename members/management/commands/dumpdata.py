"""``manage.py dumpdata``: Django's own, run with the club scope disabled.

Every club-owned model's manager refuses a query outside a club's scope (django-scopes),
so Django's ``dumpdata`` stopped with "A scope on dimension(s) club needs to be active".
The operator's dump is of the whole site, every club's rows: the same command, inside
``scopes_disabled()``. To copy or move one club, ``export_club`` is the way
(docs/deploy.md)."""

from django.core.management.commands import dumpdata

from members.clubs.scope import scopes_disabled


class Command(dumpdata.Command):
    help = dumpdata.Command.help + " Every club's rows (the club scope is not applied)."

    def handle(self, *app_labels, **options):
        with scopes_disabled():
            return super().handle(*app_labels, **options)

"""Django's ``makemessages``, also finding the engine's counted phrases.

The engine writes a number and its noun as one phrase with
``scoring.engine._text.count(n, "%(n)s canasta", "%(n)s canastas")``, which translates
the pair as ``ngettext`` does; xgettext is told to read ``count``'s second and third
arguments as a singular and its plural, so those phrases reach the catalogs too.
"""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=count:2,3"]

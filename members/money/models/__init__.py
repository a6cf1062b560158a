"""The money rows of a club (app label ``money``): its money settings and day rates,
the ledger and each person's money profile, bank imports, statements and dues."""

from members.money.models.dues import DuesNotice, MembershipType, RenewalPeriod
from members.money.models.ledger import BankImport, Entry, MoneyProfile
from members.money.models.settings import DayRate, MoneySettings, RateKind
from members.money.models.statements import StatementMessage, StatementRun

__all__ = [
    "BankImport",
    "DayRate",
    "DuesNotice",
    "Entry",
    "MembershipType",
    "MoneyProfile",
    "MoneySettings",
    "RateKind",
    "RenewalPeriod",
    "StatementMessage",
    "StatementRun",
]

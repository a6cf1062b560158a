"""Rule sets, games, teams and hands as stored rows.

Raw inputs are always stored (`Hand.inputs`, one contract-shaped dict per team), so any
hand can be corrected and rescored; the derived numbers (`TeamHand`, the running totals
on `GameTeam`) are written only by `scoring.play.services`, in the same transaction as the
hand, and can be rebuilt from the inputs (`manage.py rebuild_totals`).
"""

from scoring.models.confirmations import (
    HandConfirmation,
    HandConfirmationQuerySet,
    KeeperChange,
)
from scoring.models.exports import WorkbookExport
from scoring.models.games import Game, GameQuerySet, GameTeam, Hand, TeamHand, TeamPlayer
from scoring.models.mail import ResultsMailing, ResultsMessage
from scoring.models.results import ClubSettings, RatingPoint, ResultsVersion, Season
from scoring.models.rulesets import DayRules, RuleSet, RuleSetQuerySet, rules_from_settings
from scoring.models.submissions import Submission
from scoring.models.totals import PartnershipTotal, PersonTotal, SeasonTotal

__all__ = [
    "ClubSettings",
    "DayRules",
    "Game",
    "GameQuerySet",
    "GameTeam",
    "Hand",
    "HandConfirmation",
    "HandConfirmationQuerySet",
    "KeeperChange",
    "PartnershipTotal",
    "PersonTotal",
    "RatingPoint",
    "ResultsMailing",
    "ResultsMessage",
    "ResultsVersion",
    "RuleSet",
    "RuleSetQuerySet",
    "Season",
    "Submission",
    "SeasonTotal",
    "TeamHand",
    "TeamPlayer",
    "WorkbookExport",
    "rules_from_settings",
]

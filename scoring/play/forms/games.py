"""Starting games: choosing the partnerships, score keeper and first dealer, and the
club's draw for the next game's partners."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring import engine


class StartGameForm(forms.Form):
    """Partnerships, score keeper and first dealer, chosen from the players at the table.

    Fields: ``team{i}_player{j}`` (i, j from 0) for each place in each team,
    ``score_keeper``, ``first_dealer``, and (officers) ``rule_set``.
    """

    def __init__(
        self, *args, people, rules: engine.RuleSet, initial_teams=None, keeper_required=False, **kw
    ):
        super().__init__(*args, **kw)
        self.people = list(people)
        self.rules = rules
        choices = [("", _("Choose a player"))] + [(str(p.pk), p.full_name) for p in self.people]
        self.team_rows = []
        for i in range(rules.teams):
            row = []
            for j in range(rules.players_per_team):
                name = f"team{i}_player{j}"
                label = (
                    rules.team_label(i)
                    if rules.players_per_team == 1
                    else _("%(side)s, player %(number)s")
                    % {"side": rules.team_label(i), "number": j + 1}
                )
                initial = None
                if initial_teams and i < len(initial_teams) and j < len(initial_teams[i]):
                    initial = str(initial_teams[i][j].pk)
                self.fields[name] = forms.ChoiceField(choices=choices, label=label, initial=initial)
                row.append(name)
            self.team_rows.append(row)
        if keeper_required:
            # The other team's OK is on: somebody must keep the score, or nobody could
            # tell which team entered a hand, and nobody could confirm it.
            self.fields["score_keeper"] = forms.ChoiceField(
                choices=choices,
                label=_("Score keeper"),
                help_text=_(
                    "Today the other team confirms each hand: choose who keeps the score, "
                    "and the other team confirms what they enter."
                ),
                error_messages={
                    "required": _(
                        "Choose who keeps the score: today the other team confirms what they enter."
                    )
                },
            )
        else:
            optional = [("", _("Nobody in particular"))] + choices[1:]
            self.fields["score_keeper"] = forms.ChoiceField(
                choices=optional,
                required=False,
                label=_("Score keeper"),
                help_text=_(
                    "When hands need the other team's OK, the other team confirms what the "
                    "score keeper enters (if nobody is named, the table asks once)."
                ),
            )
        self.fields["first_dealer"] = forms.ChoiceField(
            choices=[("", _("The first player listed"))] + choices[1:],
            required=False,
            label=_("First dealer"),
            help_text=_("The player who drew the high card."),
        )

    def _person(self, value):
        for p in self.people:
            if str(p.pk) == value:
                return p
        return None

    def clean(self):
        data = super().clean()
        teams = []
        seen = set()
        for row in self.team_rows:
            team = []
            for name in row:
                person = self._person(data.get(name))
                if person is None:
                    if name not in self.errors:
                        self.add_error(name, _("Choose a player."))
                    continue
                if person.pk in seen:
                    self.add_error(
                        name, _("%(name)s is already in a team.") % {"name": person.full_name}
                    )
                seen.add(person.pk)
                team.append(person)
            teams.append(team)
        data["teams"] = teams
        data["score_keeper_person"] = self._person(data.get("score_keeper"))
        data["first_dealer_person"] = self._person(data.get("first_dealer"))
        for key in ("score_keeper", "first_dealer"):
            person = data[f"{key}_person"]
            if person is not None and person.pk not in seen:
                self.add_error(key, _("Choose one of the players of the game."))
        return data

    def team_fields(self):
        """Per side: its legend ("Team 1", "Player 2") and its fields."""
        return [
            {"legend": self.rules.team_label(i), "fields": [self[name] for name in row]}
            for i, row in enumerate(self.team_rows)
        ]


class NextGameForm(forms.Form):
    """How the next game's partnerships are set: by the club's draw or by choice."""

    high_card = forms.ChoiceField(
        label=gettext_lazy("Who drew the higher card?"),
        widget=forms.RadioSelect,
        error_messages={
            "required": gettext_lazy(
                "Tap the name of the one who drew the higher card, then start the game."
            ),
            "invalid_choice": gettext_lazy("Tap one of the two names above, then start the game."),
        },
    )

    def __init__(self, *args, left, right, **kw):
        super().__init__(*args, **kw)
        self.fields["high_card"].choices = [
            (str(left.pk), _("%(name)s (on the keeper's left)") % {"name": left.full_name}),
            (str(right.pk), _("%(name)s (on the keeper's right)") % {"name": right.full_name}),
        ]

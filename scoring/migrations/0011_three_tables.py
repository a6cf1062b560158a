"""Points against become the average opponent's total (the opponent's total when there
are two sides): the help text, and the stored numbers of games with three sides or
more redone from their teams' totals."""

from django.db import migrations, models
from django.db.models import Count


def average_opponent(apps, schema_editor):
    Game = apps.get_model("scoring", "Game")
    GameTeam = apps.get_model("scoring", "GameTeam")
    games = Game.objects.annotate(sides=Count("teams")).filter(sides__gt=2)
    for game in games.iterator():
        teams = list(GameTeam.objects.filter(game=game))
        if not any(t.hands for t in teams):
            continue
        grand = sum(t.total for t in teams)
        for team in teams:
            team.points_against = round((grand - team.total) / (len(teams) - 1))
        GameTeam.objects.bulk_update(teams, ["points_against"])


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0010_hand_confirmations"),
    ]

    operations = [
        migrations.AlterField(
            model_name="gameteam",
            name="points_against",
            field=models.IntegerField(
                default=0,
                help_text=(
                    "The other sides' average total (the opponent's total when there are two)."
                ),
            ),
        ),
        migrations.RunPython(average_opponent, migrations.RunPython.noop),
    ]

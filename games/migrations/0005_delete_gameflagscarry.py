# The Crawford flags of each game now come from the engine's own fold (MatchState.games): the projection no
# longer keeps a second reading's carry. The table held only that carry (a cache of the log), so dropping it
# loses nothing; GameSummary's rows are unchanged.

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_gameflagscarry"),
    ]

    operations = [
        migrations.DeleteModel(name="GameFlagsCarry"),
    ]

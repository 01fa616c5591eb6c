"""The backup drill (`make restore-drill`) runs from the tree as it is: a throwaway cluster archiving, backed up,
pruned and restored to a point in time by the compose deployment's own script (deploy/compose/backup.sh), and
every check of the restored server passes."""

import subprocess
import sys

from tests.conftest import ROOT

CHECKS = ("head position and head hash as noted", "event count as noted",
          "every projection's digest, rebuilt, as noted", "verify_log: the chain whole, every stream re-judged",
          "the older base backup pruned, the WAL before the kept one's start cleaned")


def test_the_restore_drill_brings_back_the_point_in_time_and_nothing_after_it():
    done = subprocess.run([sys.executable, "scripts/restore_drill.py", "--before", "60", "--after", "60"],
                          cwd=ROOT, capture_output=True, text=True, timeout=900)
    out = done.stdout + done.stderr
    assert done.returncode == 0, out[-4000:]
    for check in CHECKS:
        assert f"ok   {check}" in out, out[-4000:]
    assert "recovery time" in out

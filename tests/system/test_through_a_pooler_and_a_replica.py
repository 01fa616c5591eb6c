"""Past one database server, as deploy/compose.yaml runs it: two gunicorn nodes and a Celery worker reach
PostgreSQL through PgBouncer in transaction mode, and the anonymous reads go to a streaming replica
(bench/load.py --pooler --replica, the small form of `make bench-scale`). Matches recorded through both nodes are
re-judged and equal the API's last answers, every read model equals its rebuild, no service logged an error, the
replica served reads and replayed everything the primary wrote, and the services' prepared reads ran through the
pooler (PgBouncer 1.21+: scripts/install-pgbouncer.sh)."""

import re
import subprocess
import sys

from tests.conftest import ROOT


def test_two_nodes_through_pgbouncer_with_the_public_reads_on_a_replica():
    done = subprocess.run(
        [sys.executable, "bench/load.py", "--pooler", "--replica", "--nodes", "2", "--gunicorn-workers", "1",
         "--workers", "1", "--matches", "2", "--length", "1", "--readers", "4", "--poll", "0.2", "--seconds", "300"],
        cwd=ROOT, capture_output=True, text=True, timeout=900)
    out = done.stdout + done.stderr
    assert done.returncode == 0, out[-6000:]
    assert "in transaction mode in front of both" in out
    assert "matches finished 2 of 2" in out
    assert "equal to the API's last answer" in out and "    identical" in out
    served = re.search(r"replica: ([\d,]+) transactions served; replayed everything the primary wrote: yes", out)
    assert served and int(served[1].replace(",", "")) > 0, out[-3000:]
    pooled = re.search(r"PgBouncer crawford_bench_load: ([\d,]+) transactions", out)
    assert pooled and int(pooled[1].replace(",", "")) > 0, out[-3000:]
    assert "in transaction mode in front of both, prepared statements carried" in out, out[-3000:]
    runs = re.search(r"prepared statements: ([\d,]+) runs of ([\d,]+) the clients prepared", out)
    assert runs and int(runs[1].replace(",", "")) > int(runs[2].replace(",", "")) > 0, out[-3000:]

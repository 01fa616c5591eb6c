"""Two web nodes, each with its own in-process snapshot cache: a node holding an older snapshot of a match never
answers with the old state once the other node has appended (the cache is a prefix, the events after it are
always read). Node A is this test process, node B a second Django process on the same test database; the two
share nothing but PostgreSQL (the tests' cache is in-process), as two gunicorn nodes on two machines.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

# node B: one request per line of stdin (JSON), answered through Django's own request handling (the API a
# gunicorn node serves), with the version of the snapshot it held for the match before the request
NODE = r"""
import json, sys
import django
django.setup()
from django.test import Client
from games import loading

client = Client()
for line in sys.stdin:
    ask = json.loads(line)
    held = loading.SNAPSHOTS.held(ask["match"])
    headers = {"HTTP_AUTHORIZATION": "Token " + ask["token"], "HTTP_IDEMPOTENCY_KEY": ask.get("key", "")}
    if ask["method"] == "GET":
        answer = client.get(ask["path"], **headers)
    else:
        answer = client.post(ask["path"], json.dumps(ask["body"]), content_type="application/json", **headers)
    print(json.dumps({"status": answer.status_code, "body": answer.json(),
                      "held": held.version if held is not None else None}), flush=True)
"""


class Node:
    def __init__(self, env: dict):
        self.proc = subprocess.Popen([sys.executable, "-c", NODE], cwd=ROOT, env=env, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def ask(self, **request) -> dict:
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise AssertionError("node B died:\n" + self.proc.stderr.read()[-3000:])
        return json.loads(line)

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=120)


@pytest.fixture
def node_b(worker_env):
    env, _ = worker_env
    node = Node(dict(env, DJANGO_SETTINGS_MODULE="tests.settings"))
    yield node
    node.close()


@pytest.fixture
def match(api, make_user):
    from rest_framework.authtoken.models import Token

    director = make_user("dora", official=True, player=False)
    ann, bob = make_user("ann"), make_user("bob")
    created = api(director).post("/api/matches/", {"player0": ann.player.pk, "player1": bob.player.pk, "length": 5,
                                                   "dice": "board"}, format="json")
    assert created.status_code == 201, created.content
    return created.json()["id"], api(director), Token.objects.create(user=director).key


def test_a_node_holding_an_older_snapshot_answers_the_state_the_other_node_appended(match, node_b):
    match_id, node_a, token = match
    path = f"/api/matches/{match_id}/"
    first = node_b.ask(method="GET", path=path, match=match_id, token=token)
    assert first["status"] == 200
    old = first["body"]

    # node A records the opening roll and a move: two appends node B knows nothing about
    version = old["version"]
    for key, command in (("a1", {"type": "roll", "dice": [3, 1]}), ("a2", {"type": "move", "move": "8/5 6/5"})):
        answer = node_a.post(f"{path}commands/", dict(command, expected_version=version), format="json",
                             HTTP_IDEMPOTENCY_KEY=key)
        assert answer.status_code == 200, answer.content
        version = answer.json()["state"]["version"]
    on_a = node_a.get(path).json()
    assert on_a["version"] == version > old["version"]

    again = node_b.ask(method="GET", path=path, match=match_id, token=token)
    assert again["held"] == old["version"], "node B must have answered the second read with a snapshot in hand"
    assert again["status"] == 200
    assert again["body"] == on_a  # the new state, every field of it, not the snapshot's

    # and the other way round: node B appends (it must judge against the new state), node A's snapshot is older
    roll = node_b.ask(method="POST", path=f"{path}commands/", match=match_id, token=token, key="b1",
                      body={"type": "roll", "dice": [6, 4], "expected_version": version})
    assert roll["status"] == 200, roll["body"]
    assert roll["held"] == version
    from games import loading

    held_by_a = loading.SNAPSHOTS.held(match_id)
    assert held_by_a is not None and held_by_a.version == version
    on_a = node_a.get(path).json()
    assert on_a == roll["body"]["state"] and on_a["dice"] == [6, 4]

    # a stale command on node A, at the version its snapshot holds, is refused rather than judged on the old state
    stale = node_a.post(f"{path}commands/", {"type": "double", "expected_version": version}, format="json",
                        HTTP_IDEMPOTENCY_KEY="a3")
    assert stale.status_code == 409
    assert stale.json()["state"] == on_a


def test_a_command_judged_on_the_snapshot_unread_is_still_refused_as_stale_when_the_other_node_has_appended(
        match, node_b):
    """A command sent for the version a node's snapshot holds is judged on that snapshot without reading the log
    (games.command_handler._record_for). Node B's appends since then still turn it away as stale, with the state
    now: a legal command by the append's version check, a refused one by a look at the log before the refusal is
    said (judged on the old state, it would be refused for a reason of a position the match has left)."""
    from games import loading

    match_id, node_a, token = match
    path = f"/api/matches/{match_id}/"
    created = node_a.get(path).json()
    opened = node_a.post(f"{path}commands/", {"type": "roll", "dice": [3, 1], "expected_version": created["version"]},
                         format="json", HTTP_IDEMPOTENCY_KEY="a1")
    assert opened.status_code == 200, opened.content
    v1 = opened.json()["state"]["version"]

    moved = node_b.ask(method="POST", path=f"{path}commands/", match=match_id, token=token, key="b1",
                       body={"type": "move", "move": "8/5 6/5", "expected_version": v1})
    assert moved["status"] == 200, moved["body"]

    # a play the dice 3-1 cannot make, sent for the version node A holds: refused as stale, not as illegal
    assert loading.SNAPSHOTS.held(match_id).version == v1
    illegal = node_a.post(f"{path}commands/", {"type": "move", "move": "24/18", "expected_version": v1}, format="json",
                          HTTP_IDEMPOTENCY_KEY="a2")
    assert illegal.status_code == 409, illegal.content
    assert illegal.json()["state"] == moved["body"]["state"]

    rolled = node_b.ask(method="POST", path=f"{path}commands/", match=match_id, token=token, key="b2",
                        body={"type": "roll", "dice": [6, 4], "expected_version": moved["body"]["state"]["version"]})
    assert rolled["status"] == 200, rolled["body"]

    # a command legal on node A's snapshot, for its version: the append refuses it, and the answer is node B's state
    v2 = moved["body"]["state"]["version"]
    assert loading.SNAPSHOTS.held(match_id).version == v2
    stale = node_a.post(f"{path}commands/", {"type": "roll", "dice": [2, 2], "expected_version": v2}, format="json",
                        HTTP_IDEMPOTENCY_KEY="a3")
    assert stale.status_code == 409, stale.content
    assert stale.json()["state"] == rolled["body"]["state"]
    assert node_a.get(path).json() == rolled["body"]["state"]

"""Server dice a player can verify: commit to a seed before a game, reveal it after.

Before the first server roll of a game the server draws a 32-byte seed from the
operating system's secure generator (``secrets``) and records only its
SHA-256 (``DiceSeedCommitted``). Every server roll of that game is derived from
the seed: roll k (0, 1, 2…) is two dice drawn from HMAC-SHA256(seed, "k:i")
with rejection sampling, so each die is uniform on 1..6. When the game ends
the seed is published (``DiceSeedRevealed``). Anyone can then check that the
seed hashes to the commitment made before the game and that every server roll
of the game is the one the seed gives: the server could not choose them.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_seed() -> str:
    return secrets.token_hex(32)


def commitment(seed: str) -> str:
    return hashlib.sha256(bytes.fromhex(seed)).hexdigest()


def roll(seed: str, k: int) -> tuple[int, int]:
    """The k-th server roll of a game with this seed."""
    dice = []
    attempt = 0
    while len(dice) < 2:
        digest = hmac.new(bytes.fromhex(seed), f"{k}:{attempt}".encode(), hashlib.sha256).digest()
        attempt += 1
        for byte in digest:
            if byte < 252:  # 252 = 6 * 42: larger bytes would favour low numbers
                dice.append(byte % 6 + 1)
                if len(dice) == 2:
                    break
    return dice[0], dice[1]


def verify(rows) -> list[dict]:
    """Check every game of a match stream: the seed matches its commitment and gives every server roll.

    Returns one line per committed game: ``game``, ``commitment``, ``seed`` (None until revealed),
    ``rolls`` (server rolls seen), ``verified`` (True, False, or None while the game goes on) and ``problem``.
    """
    games: dict[int, dict] = {}
    current = 0
    for row in rows:
        kind, p = row.event_type, row.payload
        if kind == "DiceSeedCommitted":
            current = p["game"]
            games[current] = {"game": current, "commitment": p["commitment"], "seed": None, "rolled": []}
        elif kind == "DiceSeedRevealed":
            games.setdefault(p["game"], {"game": p["game"], "commitment": None, "seed": None, "rolled": []})["seed"] = p["seed"]
        elif kind in ("OpeningRollTied", "GameStarted", "DiceRolled") and p.get("source") == "server" and current in games:
            rolled = (p["die"], p["die"]) if kind == "OpeningRollTied" else tuple(p["dice"])
            games[current]["rolled"].append(rolled)
    out = []
    for g in games.values():
        line = {"game": g["game"], "commitment": g["commitment"], "seed": g["seed"], "rolls": len(g["rolled"]),
                "verified": None, "problem": ""}
        if g["seed"] is not None:
            if g["commitment"] is None or commitment(g["seed"]) != g["commitment"]:
                line.update(verified=False, problem="the revealed seed does not match the commitment")
            else:
                bad = [k for k, r in enumerate(g["rolled"]) if sorted(r) != sorted(roll(g["seed"], k))]
                line.update(verified=not bad, problem=f"rolls {bad} do not come from the seed" if bad else "")
        out.append(line)
    return out

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

from games.engine.events import RollSource


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
    """Check every game of a match stream: which rolls were the server's, and that the seed gave each of them.

    Returns one line per game that has a commitment or a roll: ``game``, ``commitment``, ``seed`` (None until
    revealed), ``rolls`` (how many server rolls), ``server_rolls`` and ``board_rolls`` (each roll with its
    stream ``version`` and ``dice``; a board roll also with its ``source``: ``physical`` or ``imported``),
    ``verified`` and ``problem``. ``verified`` is True only when the seed matches its commitment, gives every
    server roll, and no roll of the game came from elsewhere; None while the game goes on or when the server
    rolled nothing; False otherwise, with the reason.
    """
    games: dict[int, dict] = {}
    started = 0  # the game under way (its GameStarted seen)
    committed = 0  # the latest game a seed was committed for (before its opening roll)

    def line(game: int) -> dict:
        return games.setdefault(game, {"game": game, "commitment": None, "seed": None, "server": [], "board": []})

    for row in rows:
        kind, p = row.event_type, row.payload
        if kind == "DiceSeedCommitted":
            committed = p["game"]
            line(committed)["commitment"] = p["commitment"]
        elif kind == "DiceSeedRevealed":
            line(p["game"])["seed"] = p["seed"]
        elif kind in ("OpeningRollTied", "GameStarted", "DiceRolled"):
            if kind == "GameStarted":
                started = game = p["game"]
            elif kind == "OpeningRollTied":
                game = max(started + 1, committed)
            else:
                game = started
            dice = [p["die"], p["die"]] if kind == "OpeningRollTied" else list(p["dice"])
            roll_ = {"version": getattr(row, "version", None), "dice": dice}
            if p.get("source", RollSource.SERVER) == RollSource.SERVER:
                line(game)["server"].append(roll_)
            else:
                line(game)["board"].append({**roll_, "source": p.get("source")})
    out = []
    for g in sorted(games.values(), key=lambda g: g["game"]):
        result = {"game": g["game"], "commitment": g["commitment"], "seed": g["seed"], "rolls": len(g["server"]),
                  "server_rolls": g["server"], "board_rolls": g["board"], "verified": None, "problem": ""}
        problems = []
        if g["server"] and g["commitment"] is None:
            problems.append("server rolls without a committed seed")
        elif g["seed"] is not None:
            if commitment(g["seed"]) != g["commitment"]:
                problems.append("the revealed seed does not match the commitment")
            else:
                bad = [r["version"] for k, r in enumerate(g["server"]) if sorted(r["dice"]) != sorted(roll(g["seed"], k))]
                if bad:
                    problems.append(f"the rolls at versions {bad} do not come from the seed")
        if g["board"] and g["server"]:
            problems.append(f"the rolls at versions {[r['version'] for r in g['board']]} were not the server's")
        if problems:
            result.update(verified=False, problem="; ".join(problems))
        elif not g["server"]:
            result["problem"] = "no server rolls: this game's dice came from the board"
        elif g["seed"] is not None:
            result["verified"] = True
        out.append(result)
    return out

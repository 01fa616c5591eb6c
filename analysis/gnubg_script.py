"""Run INSIDE GNU Backgammon (``gnubg -t -q -r -p gnubg_script.py``), never imported by the project.

gnubg is GPL: it runs as its own process and this script talks to it through its embedded Python, the
project reads only the JSON this writes. Parameters come through the environment (gnubg gives the script
no argv): ``CRAWFORD_MAT`` (the match), ``CRAWFORD_PLIES`` (evaluation depth), ``CRAWFORD_OUT`` (the JSON).
"""
import json
import os

import gnubg

# gnubg 1.07's default marks, on a play's loss in EMG: checked against its printed counts by the tests
THRESHOLDS = ((0.12, "very bad"), (0.06, "bad"), (0.03, "doubtful"))


def main():
    out_path, plies = os.environ["CRAWFORD_OUT"], int(os.environ.get("CRAWFORD_PLIES", "0"))
    real_stdout = os.dup(1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)  # gnubg writes boards and banners to stdout whatever the settings
    for c in ("set display off", "set sound enable off", "set output errorratefactor 1000",
              f"set analysis chequerplay evaluation plies {plies}",
              f"set analysis cubedecision evaluation plies {plies}",
              "set analysis chequerplay evaluation prune on" if plies else "set analysis chequerplay evaluation prune off",
              "import mat " + os.environ["CRAWFORD_MAT"]):
        gnubg.command(c)
    # game by game rather than "analyse match" (the same analysis and statistics: gnubg sums the games'),
    # so that the worker can show the progress: CRAWFORD_PROGRESS gets "games done / games" after each
    total = len(gnubg.match(analysis=0, boards=0)["games"])
    for done in range(total):
        gnubg.command("first game" if done == 0 else "next game")
        gnubg.command("analyse game")
        progress(done + 1, total)
    printed_path = out_path + ".txt"
    fd = os.open(printed_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    os.dup2(fd, 1)
    gnubg.command("show statistics match")
    os.dup2(devnull, 1)
    m = gnubg.match(analysis=1, statistics=1, boards=0)
    info = m["match-info"]
    result = {
        "names": [info["X"]["name"], info["O"]["name"]],
        "length": info["match-length"],
        "decisions": list(decisions(m)),
        "stats": m["stats"],
    }
    with open(out_path, "w") as f:
        json.dump(result, f)
    os.dup2(real_stdout, 1)


def progress(done, total):
    path = os.environ.get("CRAWFORD_PROGRESS")
    if path:
        with open(path + ".tmp", "w") as f:
            f.write(f"{done} {total}")
        os.replace(path + ".tmp", path)


def verdict(loss):
    for threshold, word in THRESHOLDS:
        if loss > threshold:
            return word
    return ""


def steps(move):
    return " ".join(f"{'bar' if a == 25 else a}/{'off' if b <= 0 else b}" for a, b in move)


def decisions(m):
    """Checker plays with a choice, and cube decisions: gnubg's equities normalised (EMG) for the player deciding.

    gnubg.match() gives a cube decision's no-double and double/take values as match-winning chances; they
    are normalised here with gnubg's own ``mwc2eq`` on the cube as it stood, so that double/pass is +1 and
    the losses are the ones gnubg's statistics add up (the tests compare their sums with what it prints).
    ``turn`` numbers the checker plays of the game (dances included), and each kind of cube action apart.
    """
    side = {"X": 0, "O": 1}  # gnubg's player 0 is the .mat's first (left) player
    length = m["match-info"]["match-length"]
    for g, game in enumerate(m["games"], start=1):
        info = game["info"]
        score = (info["score-X"], info["score-O"])
        crawford = 1 if info.get("crawford") else 0
        cube, owner, pending = 1, -1, None
        turn, count = -1, {"double": -1, "take": -1, "drop": -1}
        for action in game["game"]:
            kind, a = action["action"], action.get("analysis") or {}
            if kind not in ("move", "double", "take", "drop"):
                continue
            player = side[action["player"]]
            if kind == "move":
                turn += 1
            else:
                count[kind] += 1
            nd, dt = a.get("nd-cubeful-eq"), a.get("dt-cubeful-eq")
            if kind in ("move", "double") and nd is not None and dt is not None and length:
                ci = gnubg.cubeinfo(cube, owner, player, length, score, crawford, 0)
                no_double, take = gnubg.mwc2eq(nd, ci), gnubg.mwc2eq(dt, ci)
                best = max(no_double, min(take, 1.0))
                best_word = "no double" if best == no_double else ("double, take" if take < 1.0 else "double, pass")
                if kind == "move":
                    row = {"game": g, "turn": turn, "player": player, "kind": "no double", "dice": "",
                           "played": "no double", "equity_played": no_double}
                else:
                    pending = take
                    row = {"game": g, "turn": count[kind], "player": player, "kind": "double", "dice": "",
                           "played": "double", "equity_played": min(take, 1.0)}
                loss = best - row["equity_played"]
                yield dict(row, best=best_word, equity_best=best, loss=loss, verdict=verdict(loss))
            elif kind in ("take", "drop") and pending is not None:
                # the taker's equity is minus the doubler's: take = -DT, pass = -1
                mine = -pending if kind == "take" else -1.0
                best = max(-pending, -1.0)
                loss = best - mine
                yield {"game": g, "turn": count[kind], "player": player, "kind": kind, "dice": "", "played": kind,
                       "best": "take" if -pending >= -1.0 else "pass", "equity_played": mine, "equity_best": best,
                       "loss": loss, "verdict": verdict(loss)}
                if kind == "take":
                    cube, owner = cube * 2, player
                pending = None
            if kind == "move":
                moves = a.get("moves") or []
                if len(moves) > 1 and "imove" in a:
                    played, top = moves[a["imove"]], moves[0]
                    loss = top["score"] - played["score"]
                    yield {"game": g, "turn": turn, "player": player, "kind": "move",
                           "dice": "%d%d" % tuple(action["dice"]), "played": steps(action["move"]),
                           "best": steps(top["move"]), "equity_played": played["score"], "equity_best": top["score"],
                           "loss": loss, "verdict": verdict(loss)}


main()

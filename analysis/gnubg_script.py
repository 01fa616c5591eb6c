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
    side = {"X": 0, "O": 1}
    for g, game in enumerate(m["games"], start=1):
        turn = -1  # the n-th turn of the game, dances included: the n-th checker event of the stream's game
        for action in game["game"]:
            kind, a = action["action"], action.get("analysis") or {}
            if kind != "move":
                continue
            turn += 1
            row = {"game": g, "turn": turn, "player": side[action["player"]]}
            # checker plays only: gnubg.match() gives a cube decision's no-double and double/take
            # equities but not the double/pass one it judges the answer with in match play, so its
            # per-decision cube losses are not reproduced here (the per-player cube figures are gnubg's own)
            moves = a.get("moves") or []
            if len(moves) > 1 and "imove" in a:
                played, top = moves[a["imove"]], moves[0]
                loss = top["score"] - played["score"]
                yield dict(row, kind="move", dice="%d%d" % tuple(action["dice"]), played=steps(action["move"]),
                           best=steps(top["move"]), equity_played=played["score"], equity_best=top["score"],
                           loss=loss, verdict=verdict(loss))



main()

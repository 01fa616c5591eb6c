"""Run inside GNU Backgammon: import every .mat of $MAT_DIR, print what gnubg read.

    MAT_DIR=/some/dir OUT_FILE=out.json /usr/games/gnubg -t -q -r -p tests/games/engine/gnubg_read_mat.py

One JSON line per file in $OUT_FILE (gnubg writes boards to stdout): names, length,
and per game the winner, the points and every checker play as gnubg parsed it; beside
them the names and, per game, the score and whether it was resigned.
"""

import json
import os
import sys

import gnubg  # noqa: F401 - only inside gnubg's embedded Python

out = open(os.environ["OUT_FILE"], "w")
directory = os.environ["MAT_DIR"]
try:
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".mat"):
            continue
        gnubg.command("new session")  # a file gnubg cannot import must not report the one before
        gnubg.command("import mat %s" % os.path.join(directory, name))
        match = gnubg.match(0, 0, 0, 0)
        info = match["match-info"]
        names = {"X": info["X"]["name"], "O": info["O"]["name"]}
        games = []
        for game in match["games"]:
            moves = [
                [names[a["player"]], list(a["dice"]), sorted(list(m) for m in a["move"])]
                for a in game["game"]
                if a.get("action") == "move"
            ]
            games.append({"winner": names.get(game["info"]["winner"]), "points": game["info"].get("points-won"),
                          "moves": moves})
        out.write(json.dumps({
            "file": name, "length": info["match-length"], "games": games, "names": [names["X"], names["O"]],
            "scores": [[g["info"]["score-X"], g["info"]["score-O"]] for g in match["games"]],
            "resigned": [bool(g["info"].get("resigned")) for g in match["games"]],
        }) + "\n")
    out.flush()
except BaseException:
    import traceback

    traceback.print_exc()
    sys.stderr.flush()
    os._exit(3)
os._exit(0)

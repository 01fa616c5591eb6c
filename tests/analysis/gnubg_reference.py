"""Run inside GNU Backgammon by the tests (never by the project): the reference the analysis is checked against.

For the .mat in $REF_MAT analysed at $REF_PLIES: writes to $REF_OUT one JSON line per checker play with more
than one legal play (game, turn, dice, the play's steps, the loss), and the text of ``show statistics match``
to $REF_OUT.txt — what a person running gnubg by hand would read.
"""
import json
import os

import gnubg

devnull = os.open(os.devnull, os.O_WRONLY)
os.dup2(devnull, 1)
plies = os.environ["REF_PLIES"]
for c in ("set display off", f"set analysis chequerplay evaluation plies {plies}",
          f"set analysis cubedecision evaluation plies {plies}", "import mat " + os.environ["REF_MAT"],
          "analyse match"):
    gnubg.command(c)
fd = os.open(os.environ["REF_OUT"] + ".txt", os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
os.dup2(fd, 1)
gnubg.command("show statistics match")
os.dup2(devnull, 1)
with open(os.environ["REF_OUT"], "w") as out:
    for g, game in enumerate(gnubg.match(analysis=1, boards=0)["games"], start=1):
        turns = [a for a in game["game"] if a["action"] == "move"]
        for t, a in enumerate(turns):
            analysis = a.get("analysis") or {}
            moves = analysis.get("moves") or []
            if len(moves) > 1:
                out.write(json.dumps({"game": g, "turn": t, "player": a["player"], "dice": sorted(a["dice"]),
                                      "steps": sorted(map(list, a["move"])),
                                      "loss": moves[0]["score"] - moves[analysis["imove"]]["score"]}) + "\n")

#!/usr/bin/env python3
"""Re-scores finished games of a go_gnugo.py JSON Lines file with a gpn binary: replays each
game's moves over GTP, asks `final_score`, and compares it with the score gnugo gave the same
game (the record's `scores`). A check of gpn's dead-stone judge on fixed games, without
replaying the matches:

  scripts/external/go_rescore.py experiments/data/go/selfplay-gnugo-referee-200ms.jsonl
"""
import argparse
import json

from gtp_client import Gtp


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("games", help="a go_gnugo.py JSON Lines file")
    ap.add_argument("--gpn", default="target/release/gpn")
    args = ap.parse_args()
    engine = Gtp([args.gpn, "--protocol", "gtp", "--game", "go"], "gpn")
    same = total = 0
    for line in open(args.games):
        game = json.loads(line)
        if game.get("end") != "passes":
            continue
        referee = next((v for k, v in game["scores"].items() if k.startswith("gnugo")), None)
        if referee is None:
            continue
        engine.cmd("boardsize 9")
        engine.cmd("clear_board")
        engine.cmd(f"komi {game.get('komi', 7)}")
        for i, move in enumerate(game["moves"]):
            engine.cmd(f"play {'bw'[i % 2]} {move}")
        score = engine.cmd("final_score")
        agree = float(score[2:] or 0) * (1 if score[0] == "B" else -1) == \
            float(referee[2:] or 0) * (1 if referee[0] == "B" else -1) if score != "0" else referee in ("0", "0.0")
        same += agree
        total += 1
        print(f"game {game['game']}: gpn {score} gnugo {referee}{'' if agree else '  <-- differs'}")
    print(f"final_score equal in {same} of {total}")


if __name__ == "__main__":
    main()

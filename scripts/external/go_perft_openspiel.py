#!/usr/bin/env python3
"""Go perft by OpenSpiel (positional superko, suicide illegal), for gpn's Go tests.

Writes tests/data/go.perft (the format of tests/perft.rs): per case, the moves from the start
in GTP vertices and the perft counts at depths 1..D. A case is the start position or a random
game of K plies (Python's random seeded with S; passes excluded so that the board fills).

Usage: scripts/external/go_perft_openspiel.py > tests/data/go.perft
(needs open_spiel: pip install open_spiel; komi 7.5, which perft does not depend on)
"""
import random

import pyspiel

COLUMNS = "ABCDEFGHJKLMNOPQRST"


def vertex(n, action):
    if action == n * n:
        return "pass"
    return f"{COLUMNS[action % n]}{action // n + 1}"


def perft(state, depth):
    # gpn's convention: leaves at exactly `depth` plies; a game over sooner counts 0.
    if state.is_terminal():
        return 0
    if depth == 0:
        return 1
    if depth == 1:
        return len(state.legal_actions())
    total = 0
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        total += perft(child, depth - 1)
    return total


def case(n, plies, seed, depth):
    game = pyspiel.load_game("go", {"board_size": n, "komi": 7.5})
    state = game.new_initial_state()
    rng = random.Random(seed)
    moves = []
    for _ in range(plies):
        legal = [a for a in state.legal_actions() if a != n * n]
        if not legal:
            break
        a = rng.choice(legal)
        moves.append(vertex(n, a))
        state.apply_action(a)
    name = {5: "go5", 7: "go7", 9: "go", 13: "go13", 19: "go19"}[n]
    print(f"\ngame {name}\ncase start")
    if moves:
        print(f"# {plies} random plies, seed {seed}")
        print("moves " + " ".join(moves))
    for d in range(1, depth + 1):
        print(f"perft {d} {perft(state, d)}")


if __name__ == "__main__":
    print("# Go perft from OpenSpiel 'go' (positional superko, suicide illegal), written by")
    print("# scripts/external/go_perft_openspiel.py; counts at exactly the depth (an ended game")
    print("# counts 0). OpenSpiel's game ends at 2 N^2 plies (gpn's at 4 N^2); not reached here.")
    case(9, 0, 0, 4)
    case(19, 0, 0, 3)
    for seed in range(1, 4):
        case(9, 60, seed, 3)
    case(9, 70, 7, 3)
    case(5, 12, 5, 5)
    case(7, 30, 6, 4)
    case(13, 0, 0, 3)
    case(13, 90, 9, 3)
    case(19, 200, 8, 2)

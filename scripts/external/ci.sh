#!/usr/bin/env bash
# Real opponents for CI: gpn vs Fairy-Stockfish over UCI (breakthrough, 5+0.05, gpn
# pondering) and gpn vs gtp-rhino over GTP (Othello, 20 s per side), 20 games each, every move
# checked by an independent referee (pyffish, OpenSpiel); gpn driven over UAI by a real UAI
# client, python-ataxx's `ataxx.uai.Engine` (Ataxx, 20 games of gpn vs gpn, 3+0.05, every move
# checked by python-ataxx's board); gpn against itself with both clocks kept at 50+0 ms, 100+0 ms
# and 1+0.01 s in cfour, breakthrough and awari (zero time losses allowed); then the protocol
# latency against Fairy-Stockfish. Installs
# what is missing (apt: fairy-stockfish, grhino; a venv with pyffish, open_spiel and ataxx).
# Fails on any forfeit: illegal move or PV, time loss, protocol error, crash.
#
#   scripts/external/ci.sh            # everything
#   GAMES=4 scripts/external/ci.sh    # a shorter run
set -euo pipefail
cd "$(dirname "$0")/../.."

GAMES=${GAMES:-20}
VENV=${GPN_EXT_VENV:-target/ext-venv}
OUT=${GPN_EXT_OUT:-target/ext}
FSF=/usr/games/fairy-stockfish
RHINO=/usr/games/gtp-rhino

if [[ ! -x $FSF || ! -x $RHINO ]]; then
    SUDO=
    if [[ $(id -u) != 0 ]]; then SUDO="sudo -n"; fi
    $SUDO apt-get update -q
    # grhino's recommends are a GUI's (gnugo etc.): not needed for its GTP engine.
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends \
        fairy-stockfish grhino
fi
if ! "$VENV/bin/python" -c 'import pyffish, pyspiel, ataxx.uai' 2>/dev/null; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q --disable-pip-version-check pyffish==0.0.90 open_spiel==2.0.2 \
        ataxx==2.2.0
fi

cargo build --release -q
# Where cargo put it (CARGO_TARGET_DIR moves the build out of the tree).
GPN="${CARGO_TARGET_DIR:-target}/release/gpn"
mkdir -p "$OUT"

echo "== gpn vs Fairy-Stockfish, UCI breakthrough, $GAMES games, 5+0.05, gpn ponders"
"$VENV/bin/python" scripts/external/match.py uci --a "$GPN --protocol uci" --b "$FSF" \
    --variant breakthrough --games "$GAMES" --tc 5+0.05 --ponder a --opening-plies 2 \
    --json "$OUT/uci-fsf.json" --games-file "$OUT/uci-fsf.txt"

echo "== gpn vs gtp-rhino, GTP Othello, $GAMES games, 20 s per side"
"$VENV/bin/python" scripts/external/match.py gtp --a "$GPN --protocol gtp" --b "$RHINO" \
    --games "$GAMES" --tc 20 --json "$OUT/gtp-rhino.json" --games-file "$OUT/gtp-rhino.txt"

echo "== gpn over UAI driven by python-ataxx (ataxx.uai.Engine), $GAMES games, gpn vs gpn, 3+0.05"
"$VENV/bin/python" scripts/external/uai_ataxx.py --engine "$GPN --protocol uai" \
    --games "$GAMES" --tc 3+0.05 | tee "$OUT/uai-ataxx.txt"

echo "== time losses: gpn vs gpn with both clocks kept (no margin: a move longer than the clock loses)"
for variant in cfour breakthrough awari; do
    # Not 20+0 ms: one descheduling of the engine or the referee by a busy host (16 ms in a CI
    # run) loses that game whatever the engine does (docs/real-opponents.md).
    for tc in 0.05+0 0.1+0 1+0.01; do
        "$VENV/bin/python" scripts/external/match.py uci --a "$GPN --protocol uci" \
            --b "$GPN --protocol uci" --variant "$variant" --games "$GAMES" --tc "$tc" \
            --margin-ms 0 --opening-plies 2 --quiet --json "$OUT/clock-$variant-$tc.json"
    done
done

echo "== latency during a search (ms), gpn and Fairy-Stockfish"
python3 scripts/latency.py --trials 50 "$GPN" "$FSF"

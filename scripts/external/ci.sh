#!/usr/bin/env bash
# Real opponents for CI (issue 4): gpn vs Fairy-Stockfish over UCI (breakthrough, 5+0.05, gpn
# pondering) and gpn vs gtp-rhino over GTP (Othello, 20 s per side), 20 games each, every move
# checked by an independent referee (pyffish, OpenSpiel); then the protocol latency against
# Fairy-Stockfish. Installs what is missing (apt: fairy-stockfish, grhino; a venv with pyffish
# and open_spiel). Fails on any forfeit: illegal move or PV, time loss, protocol error, crash.
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
if ! "$VENV/bin/python" -c 'import pyffish, pyspiel' 2>/dev/null; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q --disable-pip-version-check pyffish==0.0.90 open_spiel==2.0.2
fi

cargo build --release -q
GPN=target/release/gpn
mkdir -p "$OUT"

echo "== gpn vs Fairy-Stockfish, UCI breakthrough, $GAMES games, 5+0.05, gpn ponders"
"$VENV/bin/python" scripts/external/match.py uci --a "$GPN --protocol uci" --b "$FSF" \
    --variant breakthrough --games "$GAMES" --tc 5+0.05 --ponder a --opening-plies 2 \
    --json "$OUT/uci-fsf.json" --games-file "$OUT/uci-fsf.txt"

echo "== gpn vs gtp-rhino, GTP Othello, $GAMES games, 20 s per side"
"$VENV/bin/python" scripts/external/match.py gtp --a "$GPN --protocol gtp" --b "$RHINO" \
    --games "$GAMES" --tc 20 --json "$OUT/gtp-rhino.json" --games-file "$OUT/gtp-rhino.txt"

echo "== latency during a search (ms), gpn and Fairy-Stockfish"
python3 scripts/latency.py --trials 50 "$GPN" "$FSF"

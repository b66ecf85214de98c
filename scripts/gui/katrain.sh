#!/usr/bin/env bash
# KaTrain (PyPI `katrain`, a Kivy GUI) shows gpn's analysis of a 9x9 Go game under Xvfb, through
# scripts/gui/katago_json_bridge.py (KaTrain speaks KataGo's JSON analysis protocol, not GTP;
# the bridge answers it with gpn's GTP `kata-analyze`). Screenshot: docs/gui/katrain-go.png.
#   scripts/gui/katrain.sh [GPN]      (GPN defaults to target/release/gpn)
#   RAW=1 scripts/gui/katrain.sh      gpn itself as KaTrain's engine command, no bridge: shows
#                                     what fails then (docs/gui.md quotes it); no screenshot
# KaTrain and Kivy are installed into a virtual environment, $KATRAIN_VENV (default
# /tmp/katrain-venv, outside the repo). The game shown is gpn's own: 24 moves of gpn against
# itself at 300 ms a move, written by `printsgf`.
#   POLICY_OUT=FILE                   then the "Policy" view (gpn's network priors) into FILE too
set -euo pipefail
source "$(dirname "$0")/lib.sh"
VENV=${KATRAIN_VENV:-/tmp/katrain-venv}
WAIT=${WAIT:-25}
OUT=$ROOT/docs/gui/katrain-go.png

apt_need xvfb xdotool imagemagick x11-utils openbox pngquant python3-venv libgl1 libgl1-mesa-dri \
    libegl1 xclip fonts-dejavu-core
if [[ ! -x $VENV/bin/katrain ]]; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q katrain==1.20.0
fi
PKG=$("$VENV/bin/python" -c 'import katrain, os; print(os.path.dirname(katrain.__file__))')

# A 9x9 game of gpn against itself, as SGF.
gpn_selfplay_sgf "$WORK/game.sgf" 24 300

if [[ -n ${RAW:-} ]]; then
    cmd="$GPN --protocol gtp --game go"
else
    cmd="$(command -v python3) $ROOT/scripts/gui/katago_json_bridge.py --gpn $GPN --max-time 4 --log $WORK/gtp.log"
fi
"$VENV/bin/python" - "$PKG/config.json" "$WORK/config.json" "$cmd" <<'PY'
import json, sys
src, dst, cmd = sys.argv[1:4]
c = json.load(open(src))
c["engine"].update(backend="custom", altcommand=cmd, max_visits=4000, fast_visits=400, max_time=4.0)
c["game"].update(size="9", komi=7.5, rules="chinese")
c["general"]["debug_level"] = 1
json.dump(c, open(dst, "w"), indent=1)
PY

start_x
mkdir -p "$WORK/home"
# argv[1] a config.json is KaTrain's config; an .sgf argument is loaded (its first move shown)
(cd "$WORK" && HOME=$WORK/home KIVY_NO_ARGS=1 KCFG_KIVY_LOG_LEVEL=warning \
    "$VENV/bin/python" -m katrain "$WORK/config.json" "$WORK/game.sgf" >"$WORK/katrain.log" 2>&1) &
PIDS+=($!)
win=$(wait_window "KaTrain" 90) || { grep -vE "^ |DEBUG" "$WORK/katrain.log" | head -n 40 >&2; xdotool search --name . getwindowname %@ >&2; exit 1; }
xdotool windowmove --sync "$win" 0 0 2>/dev/null || true
xdotool windowsize --sync "$win" 1024 740 2>/dev/null || true
sleep 8
xdotool windowmove "$win" 0 0 2>/dev/null || true       # again: Kivy may restore its own size
xdotool windowsize "$win" 1024 740 2>/dev/null || true
sleep 2
xdotool windowactivate --sync "$win" 2>/dev/null || true
# forward through the game to move 20 (the right arrow is KaTrain's "next move")
for _ in $(seq 20); do xdotool key --window "$win" Right; sleep 0.3; done
sleep "$WAIT"
if [[ -n ${RAW:-} ]]; then
    grep -E "ERROR|rror|xception" "$WORK/katrain.log" | head -n 20 || true
    cp "$WORK/katrain.log" "${RAW_LOG:-/tmp/katrain-raw.log}"
    exit 0
fi
shot "$OUT"
# POLICY_OUT=FILE: also the "Policy" view (key r): the priors the bridge passes on as `policy`
if [[ -n ${POLICY_OUT:-} ]]; then
    xdotool key --window "$win" r
    sleep 3
    shot "$POLICY_OUT"
fi
grep -E "ERROR" "$WORK/katrain.log" | head -n 10 || true
[[ -n ${KEEP_LOG:-} ]] && cp "$WORK/gtp.log" "$WORK/katrain.log" "${KEEP_LOG}/" || true

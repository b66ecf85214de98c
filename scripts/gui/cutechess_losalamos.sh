#!/usr/bin/env bash
# The cutechess GUI (1.5.1, built from ../shared/tools/cutechess/cutechess-src.tar.gz) plays gpn
# (White, UCI) against Fairy-Stockfish (Black, Debian `fairy-stockfish`) in Los Alamos chess under
# Xvfb; the screenshot, mid-game with both engines' evaluation panes and the Engine Debug pane
# (the raw UCI lines), is docs/gui/cutechess-losalamos.png.
#   scripts/gui/cutechess_losalamos.sh [GPN]     (GPN defaults to target/release/gpn)
# CUTECHESS_GUI: the GUI binary (default $CUTECHESS_DIR/bin/cutechess; CUTECHESS_DIR, default
# /tmp/cutechess-gui, is where it is built when missing: about 10 minutes on 2 cores).
# WAIT: seconds of play before the screenshot (default 40); clock 60 s + 0.5 s a side.
# The cutechess GUI takes no game on its command line: the engines come from its engines.json,
# the variant and clock from its cutechess.ini (both written into a temporary XDG_CONFIG_HOME,
# so nothing of the user's is read or changed), and the New Game dialog is driven by keys.
set -euo pipefail
SIZE=${SIZE:-1280x800}
source "$(dirname "$0")/lib.sh"
WAIT=${WAIT:-40}
OUT=$ROOT/docs/gui/cutechess-losalamos.png
FSF=/usr/games/fairy-stockfish
CUTECHESS_DIR=${CUTECHESS_DIR:-/tmp/cutechess-gui}
CC=${CUTECHESS_GUI:-$CUTECHESS_DIR/bin/cutechess}

apt_need xvfb xdotool imagemagick x11-utils openbox pngquant fairy-stockfish fonts-dejavu-core \
    cmake g++ qt6-base-dev qt6-svg-dev libgl-dev
if [[ ! -x $CC ]]; then
    src=
    for d in "${GPN_SHARED:-}" "$ROOT/../shared" /work/shared; do
        [[ -n $d && -f $d/tools/cutechess/cutechess-src.tar.gz ]] && { src=$d/tools/cutechess/cutechess-src.tar.gz; break; }
    done
    [[ -n $src ]] || { echo "no cutechess-src.tar.gz (set GPN_SHARED)" >&2; exit 1; }
    echo "== building the cutechess GUI into $CUTECHESS_DIR"
    mkdir -p "$CUTECHESS_DIR"
    tar -xzf "$src" -C "$CUTECHESS_DIR"
    (cd "$CUTECHESS_DIR/cutechess" && mkdir -p build && cd build &&
        cmake .. -DCMAKE_BUILD_TYPE=Release -DWITH_TESTS=OFF >/dev/null && make -j"$(nproc)" gui >/dev/null)
    mkdir -p "$(dirname "$CC")" && cp "$CUTECHESS_DIR/cutechess/build/cutechess" "$CC"
fi

export XDG_CONFIG_HOME=$WORK/config
mkdir -p "$XDG_CONFIG_HOME/cutechess"
cat >"$XDG_CONFIG_HOME/cutechess/engines.json" <<JSON
[
    {
        "name": "gpn",
        "command": "$GPN",
        "workingDirectory": "$WORK",
        "protocol": "uci",
        "variants": ["losalamos"]
    },
    {
        "name": "Fairy-Stockfish",
        "command": "$FSF",
        "workingDirectory": "$WORK",
        "protocol": "uci",
        "variants": ["losalamos"]
    }
]
JSON
cat >"$XDG_CONFIG_HOME/cutechess/cutechess.ini" <<'INI'
[games]
variant=losalamos
time_control\moves_per_tc=0
time_control\time_per_tc=60000
time_control\increment=500
second_time_control\time_control\moves_per_tc=0
second_time_control\time_control\time_per_tc=60000
second_time_control\time_control\increment=500
INI

start_x
HOME=$WORK "$CC" >"$WORK/cutechess.log" 2>&1 &
PIDS+=($!)
ccpid=$!
win=$(wait_window "Human vs Human")
xdotool windowmove --sync "$win" 0 0 2>/dev/null || true
xdotool windowsize --sync "$win" "${SIZE%x*}" "$((${SIZE#*x} - 28))" 2>/dev/null || true
xdotool windowactivate --sync "$win" 2>/dev/null || true
xdotool key ctrl+n
dlg=$(wait_window "New Game")
sleep 1
[[ -n ${DEBUG_SHOT:-} ]] && shot "$DEBUG_SHOT.1.png"
xdotool windowactivate --sync "$dlg" 2>/dev/null || true
# Focus starts on White's "Human": Down picks "CPU", Tab goes to the engine list, "g" picks gpn;
# two Tabs reach Black's "Human", Down picks "CPU" (Fairy-Stockfish, the first engine).
xdotool key Down; sleep 0.3
xdotool key Tab; sleep 0.3
xdotool type g; sleep 0.3
xdotool key Tab Tab; sleep 0.3
xdotool key Down; sleep 0.5
[[ -n ${DEBUG_SHOT:-} ]] && shot "$DEBUG_SHOT.2.png"
xdotool key Return          # OK: the game starts
game=$(wait_window "gpn vs Fairy-Stockfish")
# View menu (opens on "Flip Board"): Moves, Tags, Engine Debug, Evaluation history, ...: show
# Engine Debug (every UCI line both ways) in place of Evaluation history.
xdotool windowactivate --sync "$game" 2>/dev/null || true
xdotool key alt+v; sleep 0.5
xdotool key Down Down Down Return; sleep 0.5
xdotool key alt+v; sleep 0.5
xdotool key Down Down Down Down Return; sleep 0.5
sleep "$WAIT"
# Shoot while gpn is thinking (its CPU time has grown for 1.2 s in a row), so that the Engine
# Debug pane ends with gpn's own info lines rather than Fairy-Stockfish's.
gpid=$(pgrep -P "$ccpid" -x "$(basename "$GPN" | cut -c1-15)" | head -n 1 || true)
echo "gpn pid: ${gpid:-none}"
cpu() { awk '{print $14 + $15}' "/proc/$gpid/stat" 2>/dev/null || echo 0; }
if [[ -n $gpid ]]; then
    busy=0 last=$(cpu)
    for _ in $(seq 300); do
        sleep 0.2
        now=$(cpu)
        if ((now > last)); then busy=$((busy + 1)); else busy=0; fi
        last=$now
        ((busy >= 6)) && break
    done
fi
shot "$OUT"
grep -iE "illegal|error|warning" "$WORK/cutechess.log" | head -n 10 || true

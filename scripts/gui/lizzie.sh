#!/usr/bin/env bash
# Lizzie 0.7.4 (Debian package `liblizzie-java`, a Java GUI for Leela Zero's analysis) shows
# gpn's `lz-analyze` analysis of a 9x9 Go game under Xvfb: docs/gui/lizzie-go.png.
#   scripts/gui/lizzie.sh [GPN]      (GPN defaults to target/release/gpn)
#   RAW=1 scripts/gui/lizzie.sh      gpn without version_shim.py (see below): Lizzie's version
#                                    dialog, and often a hung window (screenshot: $RAW_OUT,
#                                    default /tmp/lizzie-raw.png)
# The game is gpn's own (24 moves against itself at 300 ms a move, `printsgf`), given to Lizzie
# on its command line. Lizzie's config (~/.config/leela-zero/lizzie-config.txt, Debian's place)
# is written under a temporary user.home, so nothing of the user's is read or changed.
# WAIT: seconds of analysis before the screenshot (default 15). POLICY_OUT=FILE: then a second
# screenshot with Lizzie's showPolicy on, into FILE. Lizzie writes win rate and visits on every
# candidate with at least 1% of the top move's playouts (min-playout-ratio-for-stats, 0.1 by
# default).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
WAIT=${WAIT:-15}
OUT=$ROOT/docs/gui/lizzie-go.png
[[ -n ${RAW:-} ]] && OUT=${RAW_OUT:-/tmp/lizzie-raw.png}   # RAW=1 never replaces the picture

apt_need liblizzie-java openjdk-17-jre xvfb xdotool imagemagick x11-utils openbox pngquant \
    fonts-dejavu-core

gpn_selfplay_sgf "$WORK/game.sgf" 24 300

# gpn answers `version` with 0.1.0, which Lizzie 0.7.4 takes for a Leela Zero older than 0.15:
# it pops up "Lizzie requires version 0.15 or later of Leela Zero for analysis (found 0.1.0)"
# from its engine thread while holding a lock, and then often hangs (board never drawn). So gpn
# runs behind version_shim.py, which answers `version` with "0.17 (gpn)". RAW=1: gpn alone.
if [[ -n ${RAW:-} ]]; then
    ENGINE="$GPN --protocol gtp --game go"
else
    ENGINE="$(command -v python3) $ROOT/scripts/gui/version_shim.py -- $GPN --protocol gtp --game go"
fi
mkdir -p "$WORK/home/.config/leela-zero" "$WORK/home/.local/share/leela-zero"
cat >"$WORK/home/.config/leela-zero/lizzie-config.txt" <<JSON
{
  "leelaz": {
    "engine-command": "$ENGINE",
    "engine-start-location": "$WORK",
    "analyze-update-interval-centisec": 50,
    "max-analyze-time-minutes": 99999,
    "max-game-thinking-time-seconds": 2,
    "print-comms": true
  },
  "ui": {
    "board-size": 9,
    "resume-previous-game": false,
    "confirm-exit": false,
    "show-move-number": true,
    "min-playout-ratio-for-stats": 0.01
  }
}
JSON

start_x
(cd "$WORK" && java -Duser.home="$WORK/home" -jar /usr/share/java/lizzie.jar "$WORK/game.sgf" \
    >"$WORK/lizzie.log" 2>&1) &
PIDS+=($!)
win=$(wait_window "^Lizzie" 60)
# RAW=1: the version dialog has the focus; a plain Return closes it (windowactivate or key
# --window do not), when Lizzie has not hung already.
message_up() {
    local id
    for id in $(xdotool search --class . 2>/dev/null); do
        [[ $(xdotool getwindowname "$id" 2>/dev/null) == Message ]] &&
            xwininfo -id "$id" 2>/dev/null | grep -q IsViewable && return 0
    done
    return 1
}
for _ in $(seq 4); do
    sleep 2
    message_up || continue
    xdotool key Return
    sleep 1
    message_up || break
done
con=$(xdotool search --onlyvisible --name "Gtp Console" 2>/dev/null | head -n 1 || true)
xdotool windowmove --sync "$win" 0 0 2>/dev/null || true
xdotool windowsize --sync "$win" 1024 540 2>/dev/null || true
if [[ -n $con ]]; then
    xdotool windowmove --sync "$con" 0 560 2>/dev/null || true
    xdotool windowsize --sync "$con" 1024 190 2>/dev/null || true
fi
xdotool windowactivate --sync "$win" 2>/dev/null || true
# End: the last move (24); Up four times: move 20. Lizzie analyses (ponders) from the start
# (lz-analyze 50); space would stop it.
xdotool key End; sleep 0.5
xdotool key Up Up Up Up; sleep 0.5
sleep "$WAIT"
shot "$OUT"
# POLICY_OUT=FILE: also with showPolicy on (key b): the `prior` of gpn's lz-analyze lines
if [[ -n ${POLICY_OUT:-} ]]; then
    xdotool key b
    sleep 3
    shot "$POLICY_OUT"
fi
echo "== what Lizzie sent gpn and gpn's first answers"
grep -E '^> ' "$WORK/lizzie.log" | head -n 20 || true
grep -E '^(=|\?)' "$WORK/lizzie.log" | head -n 12 | cut -c1-160 || true
[[ -n ${KEEP_LOG:-} ]] && cp "$WORK/lizzie.log" "$KEEP_LOG/" || true

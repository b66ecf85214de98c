#!/usr/bin/env bash
# Quarry (Debian package `quarry`, a GTK GTP GUI) plays gpn under Xvfb and takes a screenshot.
#   scripts/gui/quarry.sh go [GPN]        -> docs/gui/quarry-go.png: 9x9 Go, gpn (White) vs GNU Go
#   scripts/gui/quarry.sh reversi [GPN]   -> docs/gui/quarry-othello.png: Othello, gpn (White)
#                                            vs gtp-rhino (GRhino)
# GPN defaults to target/release/gpn. WAIT=seconds before the screenshot (default 15 for Go, 8
# for Othello). gpn's GTP stream is printed at the end and kept in
# the folder $KEEP_LOG when it is set (gpn.in: what Quarry sent gpn; gpn.out: gpn's answers).
# Quarry's settings live in $HOME/.quarry; this script runs it with HOME set to a fresh temporary
# folder holding a .quarry that lists the engines and the new game's parameters, so nothing of
# the user's is read or changed.
set -euo pipefail
GAME=${1:?usage: quarry.sh go|reversi [GPN]}
shift
source "$(dirname "$0")/lib.sh"
case $GAME in
    go) WAIT=${WAIT:-15}; OUT=$ROOT/docs/gui/quarry-go.png; OPP=gnugo; OPPCMD="/usr/games/gnugo --mode gtp --chinese-rules --level 1"
        OPPNAME="GNU Go"; QGAME=Go; GPNCMD="$GPN --protocol gtp --game go" ;;
    reversi|othello) GAME=reversi; WAIT=${WAIT:-8}; OUT=$ROOT/docs/gui/quarry-othello.png; OPP=grhino
        OPPCMD="/usr/games/gtp-rhino --level 1"; OPPNAME="GRhino Reversi"; QGAME=Reversi
        GPNCMD="$GPN --protocol gtp" ;;
    *) echo "unknown game $GAME (go or reversi)" >&2; exit 2 ;;
esac

# gpn behind a wrapper that keeps both directions of its GTP stream (Quarry's own --gtp-log
# files are written only when Quarry exits cleanly).
cat >"$WORK/gpn-logged.sh" <<WRAP
#!/bin/sh
tee -a "$WORK/gpn.in" | $GPNCMD | tee -a "$WORK/gpn.out"
WRAP
chmod +x "$WORK/gpn-logged.sh"

apt_need quarry xvfb xdotool imagemagick x11-utils openbox pngquant fonts-dejavu-core "$OPP"

cat >"$WORK/.quarry" <<CFG
[GTP Engine "gpn "]
Screen name format	= "%n %v"
Name			= "gpn"
Command line		= "$WORK/gpn-logged.sh"
Supported games		= "$QGAME"

[GTP Engine "$OPPNAME "]
Screen name format	= "%n %v"
Name			= "$OPPNAME"
Command line		= "$OPPCMD"
Supported games		= "$QGAME"

[New Game Parameters]
Game			= "$QGAME"
White player name	= "gpn"
White is computer	= true
Engine playing white	= "gpn "
Black player name	= "$OPPNAME"
Black is computer	= true
Engine playing black	= "$OPPNAME "

[New Go Game Parameters]
Board size		= 9
Handicap is fixed	= true
Fixed handicap		= 0
Free handicap		= 0
Komi			= 7.5
Time control type	= 0

[New Reversi Game Parameters]
Board size		= 8
Time control type	= 0
CFG

start_x
HOME=$WORK /usr/games/quarry --gtp-log="$WORK/gtp" >"$WORK/quarry.log" 2>&1 &
PIDS+=($!)
win=$(wait_window "Quarry Control Center")
xdotool windowactivate --sync "$win" 2>/dev/null || true
xdotool key --window "$win" alt+n
dlg=$(wait_window "New Game")
sleep 1
xdotool windowactivate --sync "$dlg" 2>/dev/null || true
xdotool key alt+f          # Forward: the game's parameters page
sleep 1
[[ -n ${DEBUG_SHOT:-} ]] && shot "$WORK/page2.png" && cp "$WORK/page2.png" "$DEBUG_SHOT"
xdotool key alt+p          # Play
board=$(wait_window "vs\\.")
xdotool windowmove --sync "$board" 0 0 2>/dev/null || true
xdotool windowsize --sync "$board" 1024 740 2>/dev/null || true
sleep "$WAIT"
shot "$OUT"
echo "== commands Quarry sent to gpn (first 12), then gpn's last answers"
head -n 12 "$WORK/gpn.in" || true
grep -v '^$' "$WORK/gpn.out" | tail -n 6 || true
if grep -q '^?' "$WORK/gpn.out"; then
    echo "== gpn refused:"; grep -n '^?' "$WORK/gpn.out"
fi
[[ -n ${KEEP_LOG:-} ]] && cp "$WORK/gpn.in" "$WORK/gpn.out" "$KEEP_LOG/" || true

# Shared helpers of the scripts/gui/*.sh screenshot scripts (sourced, not run).
# Each script: installs what it needs, starts Xvfb on a free display, runs a GUI against gpn,
# drives it (xdotool), takes a screenshot into docs/gui/, and kills what it started on exit.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
GPN=${1:-${GPN:-$ROOT/target/release/gpn}}
GPN=$(readlink -f "$GPN")
[[ -x $GPN ]] || { echo "no gpn binary at $GPN (give its path as \$1 or GPN=)" >&2; exit 1; }
SIZE=${SIZE:-1024x768}
PIDS=()
WORK=$(mktemp -d /tmp/gpn-gui.XXXXXX)

cleanup() {
    local pid
    for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do
        pid=${PIDS[i]}
        kill "$pid" 2>/dev/null || true
    done
    sleep 0.5
    for pid in "${PIDS[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
    [[ -n ${KEEP_WORK:-} ]] || rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# apt_need PKG...: installs the Debian packages that are missing (as root, or with sudo -n).
apt_need() {
    local need=() p sudo=
    for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || need+=("$p"); done
    [[ ${#need[@]} -eq 0 ]] && return 0
    [[ $(id -u) == 0 ]] || sudo="sudo -n"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq "${need[@]}" >/dev/null
}

# start_x: Xvfb on the first free display from :90, with openbox as window manager.
start_x() {
    local d=90
    while [[ -e /tmp/.X$d-lock || -e /tmp/.X11-unix/X$d ]]; do d=$((d + 1)); done
    Xvfb ":$d" -screen 0 "${SIZE}x24" -nolisten tcp >/dev/null 2>&1 &
    PIDS+=($!)
    export DISPLAY=":$d"
    for _ in $(seq 50); do xdpyinfo >/dev/null 2>&1 && break; sleep 0.1; done
    HOME=$WORK openbox >/dev/null 2>&1 &
    PIDS+=($!)
    sleep 1
}

# wait_window NAME [SECONDS]: prints the id of the first visible window whose title matches NAME.
wait_window() {
    local id t=${2:-30}
    for _ in $(seq $((t * 5))); do
        id=$(xdotool search --onlyvisible --name "$1" 2>/dev/null | head -n 1)
        [[ -n $id ]] && { echo "$id"; return 0; }
        # SDL (Kivy) windows: the title is only in _NET_WM_NAME, which --name does not match
        for id in $(xdotool search --onlyvisible --class . 2>/dev/null); do
            [[ $(xdotool getwindowname "$id" 2>/dev/null) =~ $1 ]] && { echo "$id"; return 0; }
        done
        sleep 0.2
    done
    echo "no window named '$1' after ${t}s" >&2
    return 1
}

# shot OUT.png: the whole screen, stripped, colours quantised, at most 300 KB.
shot() {
    local out=$1
    mkdir -p "$(dirname "$out")"
    import -window root "$WORK/raw.png"
    convert "$WORK/raw.png" -strip "$WORK/strip.png"
    if command -v pngquant >/dev/null; then
        pngquant --force --quality 60-95 --output "$out" "$WORK/strip.png" || cp "$WORK/strip.png" "$out"
    else
        cp "$WORK/strip.png" "$out"
    fi
    echo "wrote $out ($(stat -c %s "$out") bytes)"
}

# gpn_selfplay_sgf OUT.sgf PLIES MS: a 9x9 Go game of gpn against itself, MS ms a move, as SGF.
gpn_selfplay_sgf() {
    local out=$1 plies=$2 ms=$3 i
    {
        printf 'boardsize 9\nclear_board\nkomi 7.5\ngpn-setoption movetime %s\n' "$ms"
        for ((i = 0; i < plies; i++)); do
            if ((i % 2 == 0)); then echo "genmove b"; else echo "genmove w"; fi
        done
        printf 'printsgf %s\n' "$out"   # no quit: it would cut the queued searches short
    } | "$GPN" --protocol gtp --game go >"$WORK/selfplay.log"
    [[ -s $out ]] || { echo "gpn wrote no SGF" >&2; cat "$WORK/selfplay.log" >&2; return 1; }
}

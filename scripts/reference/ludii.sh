#!/usr/bin/env bash
# The GPN-MCTS paper's reference code beside gpn: builds the paper's Ludii fork
# (acatai/PNMCTSLudii) from a clean clone and runs gpn's driver for it
# (scripts/reference/Reference.java): Table 1 matches counted both ways, and Ludii's speed.
#
#   scripts/reference/ludii.sh build                     # clone and build (about 10 minutes)
#   scripts/reference/ludii.sh match GAME BUDGET GAMES BIAS C_PN
#   scripts/reference/ludii.sh speed GAME [SECONDS]
#   scripts/reference/ludii.sh table1 BUDGET [GAMES]     # the rows of experiments/reference.md
#
# GAME is gpn's name (losalamos, ataxx, minishogi, reachchess, loa7, reversi, skirmish, loa,
# awari, knightthrough, surakarta); BUDGET is milliseconds per move (500) or iterations (250it).
# Needs git, a JDK (javac, java; 17 builds the fork's Java 8 sources) and ant (Debian: openjdk-17-jdk
# ant), and network access to clone the fork. LUDII_DIR (default ~/.cache/gpn-ludii) holds the
# clone and the build; nothing of the fork is copied into this repository.
#
# Status (2026-11-30): written against the fork's sources as read from its public repository,
# but never run: the fork (528 MB) could not be brought onto the machine where gpn is developed.
# experiments/reference.md says what was compared instead.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
LUDII_DIR=${LUDII_DIR:-$HOME/.cache/gpn-ludii}
SRC=$LUDII_DIR/PNMCTSLudii
DRIVER=$LUDII_DIR/driver
REPO=${LUDII_REPO:-https://github.com/acatai/PNMCTSLudii.git}

# gpn's game name -> the Ludii game file (relative to Common/res/lud). LOA 7x7 is not in Ludii:
# it is made from Lines of Action.lud with the board resized (see experiments/reference.md).
lud_file() {
    case $1 in
        losalamos|losalamos-ludii) echo "board/war/replacement/checkmate/chess/Los Alamos Chess.lud" ;;
        ataxx) echo "board/space/territory/Ataxx.lud" ;;
        minishogi) echo "board/war/replacement/checkmate/shogi/Minishogi.lud" ;;
        reachchess) echo "board/race/reach/Reach Chess.lud" ;;
        loa|loa7) echo "board/space/group/Lines of Action.lud" ;;
        reversi) echo "board/space/territory/Reversi.lud" ;;
        skirmish) echo "board/war/replacement/eliminate/all/Skirmish (GDL).lud" ;;
        *) echo "no Ludii file known for $1" >&2; return 1 ;;
    esac
}

# The game file for GAME under $LUDII_DIR/games (LOA 7x7 resized from the 8x8 file).
game_file() {
    local game=$1 src out
    src=$SRC/Common/res/lud/$(lud_file "$game")
    mkdir -p "$LUDII_DIR/games"
    out=$LUDII_DIR/games/$game.lud
    if [[ $game == loa7 ]]; then
        sed 's/(square 8)/(square 7)/' "$src" > "$out"
        grep -q '(square 7)' "$out" || { echo "could not resize $src to 7x7" >&2; return 1; }
    else
        cp "$src" "$out"
    fi
    echo "$out"
}

classpath() {
    local cp=$DRIVER m jar
    for m in "$SRC"/*/; do
        [[ -d $m/bin ]] && cp=$cp:$m/bin
    done
    while IFS= read -r jar; do cp=$cp:$jar; done < <(find "$SRC" -path '*/lib/*.jar' | sort)
    echo "$cp"
}

build() {
    for tool in git javac java ant; do
        command -v "$tool" >/dev/null || { echo "$tool is missing (Debian: openjdk-17-jdk ant git)" >&2; exit 1; }
    done
    mkdir -p "$LUDII_DIR"
    if [[ ! -d $SRC/.git ]]; then
        git clone --depth 1 "$REPO" "$SRC"
    fi
    git -C "$SRC" log -1 --format='fork at %H (%cd)'
    # Player's build target builds every module it depends on (Common, Core, AI, ...).
    (cd "$SRC/Player" && ant -q build)
    mkdir -p "$DRIVER"
    javac -nowarn -cp "$(classpath)" -d "$DRIVER" "$ROOT/scripts/reference/Reference.java"
    echo "built: $SRC, driver in $DRIVER"
}

run() {
    java -Xmx4g -cp "$(classpath)" Reference "$@"
}

cmd=${1:-}
shift || true
case $cmd in
    build) build ;;
    match)
        [[ $# -eq 5 ]] || { echo "usage: $0 match GAME BUDGET GAMES BIAS C_PN" >&2; exit 2; }
        file=$(game_file "$1")
        budget=$2
        [[ $budget == *it ]] || budget=${budget%ms}
        run match "$file" "$budget" "$3" "$4" "$5"
        ;;
    speed)
        [[ $# -ge 1 ]] || { echo "usage: $0 speed GAME [SECONDS]" >&2; exit 2; }
        run speed "$(game_file "$1")" "${2:-10}"
        ;;
    table1)
        [[ $# -ge 1 ]] || { echo "usage: $0 table1 BUDGET [GAMES]" >&2; exit 2; }
        out=$ROOT/experiments/data/reference/ludii
        mkdir -p "$out"
        # game | the paper's best score-bounded cell (bias, C_pn), as experiments/scripts/table1.sh
        for spec in "loa7 rank 2" "minishogi rank 0.5" "reachchess rank 2" "ataxx max 0.5" \
            "losalamos rank 1" "reversi sum 2" "skirmish max 0.5"; do
            read -r game bias cpn <<< "$spec"
            log=$out/table1-$game-$1.txt
            [[ -s $log ]] && grep -q '^score' "$log" && continue
            echo "=== $game: Score Bounded GPN-MCTS $bias C_pn $cpn vs Score Bounded MCTS, $1"
            "$0" match "$game" "$1" "${2:-200}" "$bias" "$cpn" | tee "$log.tmp"
            mv "$log.tmp" "$log"
        done
        ;;
    *) sed -n '2,20p' "$0"; exit 2 ;;
esac

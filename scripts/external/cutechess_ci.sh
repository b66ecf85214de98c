#!/usr/bin/env bash
# The cutechess-cli stage of CI: cutechess-cli 1.5.1, built from the source in
# ../shared/tools/cutechess/ (cached in target/cutechess/), referees gpn over UCI, each move
# checked by cutechess's own move generator:
#   gpn vs Fairy-Stockfish in losalamos (tc 2+0.02, both pondering) and minishogi (tc 10+0.1),
#   gpn vs gpn in cfour and gomoku at st=0.05 and tc=40/5.
# Fails on any forfeit (illegal move, time loss, disconnection, stall, crash), an unfinished
# game, or any cutechess warning (an illegal PV move is one). Then cutechess reads back the PGN
# games files of `gpn match` (check_pgn_records.py). Logs and PGNs go to target/ext/.
#
#   scripts/external/cutechess_ci.sh             # the CI run
#   GAMES=2 scripts/external/cutechess_ci.sh     # games per match (default 4)
#   CUTECHESS=/path/to/cutechess-cli scripts/external/cutechess_ci.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

GAMES=${GAMES:-4}
OUT=${GPN_EXT_OUT:-target/ext}
FSF=/usr/games/fairy-stockfish
CC=${CUTECHESS:-target/cutechess/cutechess-cli}
mkdir -p "$OUT"

if [[ ! -x $CC ]]; then
    script=
    for dir in "${GPN_SHARED:-}" ../shared /work/shared; do
        if [[ -n $dir && -x $dir/tools/cutechess/build.sh ]]; then
            script=$dir/tools/cutechess/build.sh
            break
        fi
    done
    if [[ -z $script ]]; then
        echo "cutechess_ci: FAILED: no cutechess-cli at $CC and no ../shared/tools/cutechess/build.sh" \
            "(set CUTECHESS or GPN_SHARED)" >&2
        exit 1
    fi
    echo "== building cutechess-cli from $script (cached in $(dirname "$CC"))"
    "$script" "$(dirname "$CC")"
fi
if [[ ! -x $FSF ]]; then
    SUDO=
    if [[ $(id -u) != 0 ]]; then SUDO="sudo -n"; fi
    $SUDO apt-get update -q
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends fairy-stockfish
fi

cargo build --release -q
GPN="$(pwd)/${CARGO_TARGET_DIR:-target}/release/gpn"
failed=0

# One cutechess match; its log is checked for anything but a normal end of every game.
run() {
    local name=$1
    shift
    local log="$OUT/cutechess-$name.log"
    echo "== cutechess-cli: $name ($GAMES games)"
    # cutechess appends to -pgnout: a file left by an earlier run would count twice.
    rm -f "$OUT/cutechess-$name.pgn"
    "$CC" "$@" -games 2 -rounds $((GAMES / 2)) -repeat -concurrency 1 -recover \
        -pgnout "$OUT/cutechess-$name.pgn" >"$log" 2>&1 || true
    grep -E '^Score of' "$log" | tail -n 1 || true
    local finished bad
    finished=$(grep -c '^Finished game' "$log" || true)
    bad=$(grep -Ei 'loses on time|illegal|disconnects|stalls|terminates|crash|forfeit|unfinished|warning|\{\*\}|: \* ' "$log" || true)
    if [[ $finished -ne $GAMES || -n $bad ]]; then
        echo "cutechess_ci: FAILED $name: $finished of $GAMES games finished normally" >&2
        [[ -n $bad ]] && echo "$bad" >&2
        failed=1
    fi
}

gpn=(-engine name=gpn "cmd=$GPN" proto=uci)
gpn2=(-engine name=gpn2 "cmd=$GPN" proto=uci)
fsf=(-engine name=fsf "cmd=$FSF" proto=uci)

run losalamos-fsf -variant losalamos "${gpn[@]}" "${fsf[@]}" -each tc=2+0.02 ponder
run minishogi-fsf -variant minishogi "${gpn[@]}" "${fsf[@]}" -each tc=10+0.1
for variant in cfour gomoku; do
    run "$variant-st" -variant "$variant" "${gpn[@]}" "${gpn2[@]}" -each st=0.05
    run "$variant-40-5" -variant "$variant" "${gpn[@]}" "${gpn2[@]}" -each tc=40/5
done

# The games files of `gpn match` are PGN for the games cutechess knows: cutechess reads each
# game back with its own move generator (as the openings of a gpn vs gpn run) and must reach the
# same results in the same number of plies.
for variant in losalamos minishogi cfour gomoku; do
    echo "== games file read back by cutechess-cli: $variant"
    ours="$OUT/records-$variant.pgn"
    "$GPN" match "$variant" --engine1 sb-uct --engine2 "sb-uct c=2" --iterations 50 --games 4 \
        --openings 2 --quiet --games-file "$ours" >/dev/null
    log="$OUT/records-$variant.log"
    rm -f "$OUT/records-$variant-cutechess.pgn"
    "$CC" -variant "$variant" "${gpn[@]}" "${gpn2[@]}" -each st=0.05 timemargin=500 \
        -openings "file=$ours" format=pgn order=sequential plies=10000 -games 4 \
        -pgnout "$OUT/records-$variant-cutechess.pgn" >"$log" 2>&1 || true
    bad=$(grep -Ei 'illegal|unknown variant|invalid|warning' "$log" || true)
    if [[ -n $bad ]] || ! python3 scripts/external/check_pgn_records.py "$ours" \
        "$OUT/records-$variant-cutechess.pgn"; then
        echo "cutechess_ci: FAILED: cutechess did not read gpn's $variant games file back" >&2
        [[ -n $bad ]] && echo "$bad" >&2
        failed=1
    fi
done

if [[ $failed -ne 0 ]]; then
    exit 1
fi
echo "cutechess_ci: every game ended normally"

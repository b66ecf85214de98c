#!/usr/bin/env bash
# Clock use of two gpn builds (NEW as engine A, OLD as engine B, the same games) at two time
# controls in the games of experiments/time-management.md: UCI games through match.py
# (real clocks, referee), Othello through match.py's GTP mode (absolute time), 9x9 Go against
# GNU Go level 1 through go_gnugo.py (gpn's clock only, absolute time). Resumable: a file that
# exists (or its .gz) is skipped.
#   usage: experiments/scripts/time_survey.sh NEW_BIN OLD_BIN OUT_DIR [PYTHON] [GAMES]
set -euo pipefail
new=$1 old=$2 out=$3 py=${4:-python3} games=${5:-2}
here=$(cd "$(dirname "$0")/../../scripts" && pwd)
mkdir -p "$out"
run() { # file, command...
    local f=$1; shift
    [[ -s $f || -s $f.gz ]] && return 0
    "$@" >/dev/null && [[ -s $f.part ]] && mv "$f.part" "$f"
}
for tc in 10+0.1 60+0.6; do
    for v in breakthrough minishogi losalamos cfour; do
        run "$out/survey-$v-$tc.json" "$py" "$here/external/match.py" uci \
            --a "$new --protocol uci" --b "$old --protocol uci" --variant "$v" --games "$games" \
            --tc "$tc" --opening-plies 4 --seed 101 --quiet --json "$out/survey-$v-$tc.json.part"
    done
    base=${tc%+*}
    run "$out/survey-othello-$base.json" "$py" "$here/external/match.py" gtp \
        --a "$new --protocol gtp" --b "$old --protocol gtp" --games "$games" --tc "$base+0" \
        --opening-plies 4 --seed 101 --quiet --json "$out/survey-othello-$base.json.part"
    for who in new old; do
        bin=$new; [[ $who == old ]] && bin=$old
        f="$out/survey-go9-$who-$base.jsonl"
        [[ -s $f || -s $f.gz ]] && continue
        "$py" "$here/external/go_gnugo.py" match --level 1 --games "$games" --game-time "$base" \
            --gpn "$bin" --out "$f.part" >/dev/null && mv "$f.part" "$f"
    done
done

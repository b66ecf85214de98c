#!/usr/bin/env bash
# New against old time management, same engine otherwise: resumable chunks of match.py games
# (real clocks, pyffish/OpenSpiel referee, seats swapped every game, a fresh opening seed per
# chunk). Each chunk writes its JSON when it ends; a rerun skips the chunks already written
# (also when compressed to .json.gz, as the committed data is).
#   usage: experiments/scripts/time_matches.sh NEW_BIN OLD_BIN VARIANT TC CHUNKS OUT_DIR [PYTHON]
# CHUNKS is a count (chunks 1..N) or a range FIRST-LAST, so that several runs of one variant
# can share the machine without playing the same chunk.
#   e.g.   experiments/scripts/time_matches.sh /work/bin/gpn-new2 /work/bin/gpn-old minishogi 10+0.1 20 \
#              experiments/data/time target/ext-venv/bin/python
# Summarise with experiments/scripts/clock_use.py OUT_DIR/*.json.
set -euo pipefail
new=$1 old=$2 variant=$3 tc=$4 chunks=$5 out=$6 py=${7:-python3}
here=$(cd "$(dirname "$0")/../../scripts" && pwd)
mkdir -p "$out"
first=1 last=$chunks
if [[ $chunks == *-* ]]; then first=${chunks%-*} last=${chunks#*-}; fi
for k in $(seq "$first" "$last"); do
    f="$out/$variant-$tc-$k.json"
    [[ -s $f || -s $f.gz ]] && continue
    "$py" "$here/external/match.py" uci --a "$new --protocol uci" --b "$old --protocol uci" \
        --variant "$variant" --games 20 --tc "$tc" --opening-plies 4 --seed "$k" --quiet \
        --json "$f.part" >/dev/null
    mv "$f.part" "$f"
done

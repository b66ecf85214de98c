#!/usr/bin/env bash
# Self-test of match.py: well-behaved stub engines must give exit code 0, and every
# misbehaving stub must be caught with the right failure cause and exit code.
#
#   PYTHON=/work/venv-driver/bin/python scripts/external/selftest.sh [--peers]
#
# PYTHON: an interpreter with pyffish and open_spiel (default: python3).
# --peers: also play short real matches (fairy-stockfish vs itself in both variants with
#          ponder, gtp-rhino vs itself) when /usr/games/fairy-stockfish and
#          /usr/games/gtp-rhino exist.
set -u
cd "$(dirname "$0")"
PY=${PYTHON:-python3}
PEERS=0
[ "${1:-}" = "--peers" ] && PEERS=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

# check NAME EXPECTED_RC CAUSE ENGINE -- match.py arguments...
# CAUSE "-" means: no failures at all. Otherwise the JSON must count >= 1 failure of that
# cause for ENGINE and none of any cause for the other engine.
check() {
    local name=$1 want_rc=$2 cause=$3 who=$4
    shift 5
    local t0=$SECONDS
    "$PY" match.py "$@" --json "$tmp/$name.json" >"$tmp/$name.out" 2>&1
    local rc=$?
    local verdict
    verdict=$("$PY" - "$tmp/$name.json" "$cause" "$who" "$rc" "$want_rc" <<'EOF'
import json, sys
path, cause, who, rc, want = sys.argv[1:]
if rc != want:
    print(f"exit code {rc}, expected {want}"); sys.exit()
try:
    d = json.load(open(path))
except Exception as e:
    print(f"no JSON ({e})"); sys.exit()
c = d["failures_by_cause"]
if cause == "-":
    bad = {k: v for k, v in c.items() if v["A"] or v["B"]}
    print("ok" if not bad else f"unexpected failures {bad}")
else:
    other = "B" if who == "A" else "A"
    if c[cause][who] < 1:
        print(f"no '{cause}' failure for {who}: {c}")
    elif any(v[other] for v in c.values()):
        print(f"failures for {other} too: {c}")
    else:
        print("ok")
EOF
)
    if [ "$verdict" = "ok" ]; then
        pass=$((pass + 1))
        local what=$cause
        [ "$cause" = "-" ] && what=clean
        [ "$want_rc" = 3 ] && what="setup error: $(grep -o 'SETUP ERROR: .*' "$tmp/$name.out" | head -c 90)"
        printf 'PASS %-22s rc=%s %s (%ds)\n' "$name" "$rc" "$what" $((SECONDS - t0))
    else
        fail=$((fail + 1))
        printf 'FAIL %-22s %s\n' "$name" "$verdict"
        sed 's/^/    | /' "$tmp/$name.out" | tail -15
    fi
}

U="$PY stubs/uci_stub.py"
G="$PY stubs/gtp_stub.py"
Q=(--quiet --ping-timeout 2 --start-timeout 10)

# -- well-behaved stubs: clean matches, ponder on both sides, both variants, Othello passes
check uci-good-breakthrough 0 - - -- uci --a "$U" --b "$U --seed 2" --games 2 --tc 1+0.05 \
    --ponder both "${Q[@]}"
check uci-good-minishogi 0 - - -- uci --variant minishogi --a "$U" --b "$U --seed 2" \
    --games 2 --tc 1+0.05 --ponder a --max-plies 60 "${Q[@]}"
check gtp-good 0 - - -- gtp --a "$G" --b "$G --seed 2" --games 4 --tc 5 --opening-plies 4 \
    --lenient-pass none "${Q[@]}"

# -- UCI faults (engine A misbehaves at its 3rd go; B is a good stub)
uci() { check "$1" "$2" "$3" A -- uci --a "$U --mode $4" --b "$U --seed 2" --games 1 "${@:5}" "${Q[@]}"; }
uci uci-illegal 1 "illegal move" illegal --tc 1+0.05
uci uci-late 1 "time loss" late --tc 1+0
uci uci-ponder-early 1 "protocol error" ponder-early --tc 1+0.05 --ponder a
uci uci-no-readyok 1 "protocol error" no-readyok --tc 1+0.05
uci uci-stall 1 "protocol error" stall --tc 1+0.05
uci uci-double-bestmove 1 "protocol error" double-bestmove --tc 1+0.05
uci uci-crash 1 "crash" crash --tc 1+0.05
uci uci-illegal-pv 1 "illegal PV" illegal-pv --tc 1+0.05
uci uci-illegal-ponder 1 "illegal ponder move" illegal-ponder --tc 1+0.05
# never answers isready at all: cannot even be set up (exit 3)
check uci-no-readyok-setup 3 - - -- uci --a "$U --mode no-readyok --at 0" --b "$U" --games 1 \
    "${Q[@]}"

# -- GTP faults (engine A misbehaves at its 3rd genmove)
gtp() { check "$1" "$2" "$3" A -- gtp --a "$G --mode $4" --b "$G --seed 2" --games 1 "${@:5}" "${Q[@]}"; }
gtp gtp-illegal 1 "illegal move" illegal --tc 5
gtp gtp-unforced-pass 1 "illegal move" unforced-pass --tc 5
gtp gtp-late 1 "time loss" late --tc 2
gtp gtp-crash 1 "crash" crash --tc 5
gtp gtp-extra-blank 1 "protocol error" extra-blank --tc 5
gtp gtp-blank-in-response 1 "protocol error" blank-in-response --tc 5

# -- real peers (optional)
if [ "$PEERS" = 1 ]; then
    FSF=/usr/games/fairy-stockfish
    RH=/usr/games/gtp-rhino
    if [ -x "$FSF" ]; then
        check fsf-breakthrough 0 - - -- uci --a "$FSF" --b "$FSF" --games 2 --tc 1+0.05 \
            --ponder a --quiet
        check fsf-minishogi 0 - - -- uci --variant minishogi --a "$FSF" --b "$FSF" --games 2 \
            --tc 1+0.05 --ponder b --quiet
    else
        echo "SKIP fsf-*: $FSF not installed"
    fi
    if [ -x "$RH" ]; then
        check rhino-othello 0 - - -- gtp --a "$RH" --b "$RH" --games 2 --tc 30 \
            --lenient-pass both --quiet
    else
        echo "SKIP rhino-othello: $RH not installed"
    fi
fi

echo "selftest: $pass passed, $fail failed"
[ "$fail" = 0 ]

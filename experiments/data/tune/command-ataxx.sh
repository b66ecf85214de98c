#!/bin/sh
# The Ataxx SPSA run of docs/tuning.md (2026-11-30), from the repository root, release build.
# C and C_pn of Ataxx's defaults (the generic sb-gpn: rank bias, C sqrt 2, C_pn 1), tuned at 700
# iterations a move (about 10 ms at Ataxx's 73,000 iterations/s from the start position).
nice -n 5 gpn tune ataxx --params c,c_pn --base default \
  --pairs 2000 --pairs-per-step 2 --iterations 700 --openings 4 --seed 1 \
  --r-end 0.06 --concurrency 2 --out experiments/data/tune/ataxx-700it

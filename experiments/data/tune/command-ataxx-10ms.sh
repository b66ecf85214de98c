#!/bin/sh
# The second Ataxx SPSA run of docs/tuning.md (2026-11-30): C and C_pn tuned by the clock, at
# 10 ms a move (the validation's budget) instead of 700 iterations, from the repository root.
nice -n 5 gpn tune ataxx --params c,c_pn --base default \
  --pairs 2000 --pairs-per-step 2 --movetime 10 --openings 4 --seed 2 \
  --r-end 0.06 --concurrency 2 --out experiments/data/tune/ataxx-10ms

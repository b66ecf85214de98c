#!/bin/sh
# A second SPSA run, tuned at a time budget (10 ms a move) instead of a fixed iteration count,
# from the repository root, release build (2026-11-30, main at 06f5fb9).
nice -n 10 gpn tune breakthrough --params c,c_pn,pn_decay --base default \
  --pairs 600 --pairs-per-step 2 --movetime 10 --openings 4 --seed 2 \
  --r-end 0.03 --concurrency 2 --out experiments/data/tune/breakthrough-10ms

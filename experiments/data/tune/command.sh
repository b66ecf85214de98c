#!/bin/sh
# The SPSA run of docs/tuning.md (2026: branch `tune`), from the repository root, release build.
nice -n 10 gpn tune breakthrough --params c,c_pn,pn_decay --base default \
  --pairs 2000 --pairs-per-step 2 --iterations 1000 --openings 4 --seed 1 \
  --r-end 0.03 --concurrency 2 --out experiments/data/tune/breakthrough-1000it

#!/bin/sh
# The tuned values against the defaults at equal time, 400 games (docs/tuning.md).
nice -n 10 gpn match breakthrough --engine1 "default c=0.8245 c_pn=0.2429 pn_decay=17" \
  --engine2 default --games 400 --movetime 50 --openings 4 --seed 7 --concurrency 2 --quiet \
  --json experiments/data/tune/validate-50ms.json > experiments/data/tune/validate-50ms.txt
# The same at the tuning's own budget, 1,000 iterations a move (equal iterations, not time).
nice -n 10 gpn match breakthrough --engine1 "default c=0.8245 c_pn=0.2429 pn_decay=17" \
  --engine2 default --games 400 --iterations 1000 --openings 4 --seed 7 --concurrency 2 --quiet \
  --json experiments/data/tune/validate-1000it.json > experiments/data/tune/validate-1000it.txt
# A second equal-time control: 10 ms a move (about twice the tuning's 1,000 iterations).
nice -n 10 gpn match breakthrough --engine1 "default c=0.8245 c_pn=0.2429 pn_decay=17" \
  --engine2 default --games 400 --movetime 10 --openings 4 --seed 7 --concurrency 2 --quiet \
  --json experiments/data/tune/validate-10ms.json > experiments/data/tune/validate-10ms.txt

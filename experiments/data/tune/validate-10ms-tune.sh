#!/bin/sh
# The values of the 10 ms tune (command-10ms.sh) against the defaults at equal time.
nice -n 10 gpn match breakthrough --engine1 "default c=1.2146 c_pn=0.901 pn_decay=17" \
  --engine2 default --games 400 --movetime 10 --openings 4 --seed 7 --concurrency 2 --quiet \
  --json experiments/data/tune/validate-10ms-tune-10ms.json > experiments/data/tune/validate-10ms-tune-10ms.txt
nice -n 10 gpn match breakthrough --engine1 "default c=1.2146 c_pn=0.901 pn_decay=17" \
  --engine2 default --games 200 --movetime 50 --openings 4 --seed 7 --concurrency 2 --quiet \
  --json experiments/data/tune/validate-10ms-tune-50ms.json > experiments/data/tune/validate-10ms-tune-50ms.txt

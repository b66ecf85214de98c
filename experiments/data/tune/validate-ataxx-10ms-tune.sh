#!/bin/sh
# The clock-tuned Ataxx values (command-ataxx-10ms.sh) against the defaults at equal time,
# 400 games at 10 ms and at 20 ms (docs/tuning.md), from the repository root, release build.
for ms in 10 20; do
  nice -n 5 gpn match ataxx --engine1 "default c=0.3717 c_pn=2.5138" --engine2 default \
    --games 400 --movetime $ms --openings 4 --seed 7 --concurrency 2 --quiet \
    --json experiments/data/tune/validate-ataxx-10ms-tune-${ms}ms.json > experiments/data/tune/validate-ataxx-10ms-tune-${ms}ms.txt
done
# A second 400 games at 10 ms from other openings (seed 8).
nice -n 5 gpn match ataxx --engine1 "default c=0.3717 c_pn=2.5138" --engine2 default \
  --games 400 --movetime 10 --openings 4 --seed 8 --concurrency 2 --quiet \
  --json experiments/data/tune/validate-ataxx-10ms-tune-10ms-seed8.json > experiments/data/tune/validate-ataxx-10ms-tune-10ms-seed8.txt
# A first look at a longer budget: 40 games at 100 ms a move (seed 9).
nice -n 5 gpn match ataxx --engine1 "default c=0.3717 c_pn=2.5138" --engine2 default \
  --games 40 --movetime 100 --openings 4 --seed 9 --concurrency 2 --quiet \
  --json experiments/data/tune/validate-ataxx-10ms-tune-100ms.json > experiments/data/tune/validate-ataxx-10ms-tune-100ms.txt

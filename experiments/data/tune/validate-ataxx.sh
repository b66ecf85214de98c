#!/bin/sh
# The Ataxx tune (command-ataxx.sh) against the defaults at equal time, 400 games at each of two
# time controls (docs/tuning.md), from the repository root, release build.
for ms in 10 20; do
  nice -n 5 gpn match ataxx --engine1 "default c=1.6912 c_pn=1.5501" --engine2 default \
    --games 400 --movetime $ms --openings 4 --seed 7 --concurrency 2 --quiet \
    --json experiments/data/tune/validate-ataxx-${ms}ms.json > experiments/data/tune/validate-ataxx-${ms}ms.txt
done
# A second 400 games at 10 ms with another seed (another set of openings), for the 10 ms result.
nice -n 5 gpn match ataxx --engine1 "default c=1.6912 c_pn=1.5501" --engine2 default \
  --games 400 --movetime 10 --openings 4 --seed 8 --concurrency 2 --quiet \
  --json experiments/data/tune/validate-ataxx-10ms-seed8.json > experiments/data/tune/validate-ataxx-10ms-seed8.txt

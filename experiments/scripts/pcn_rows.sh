#!/usr/bin/env bash
# Every row of experiments/pcn.md at 2 s per problem, with the networks of
# experiments/data/pcn/nets/: experiments/scripts/pcn_rows.sh K runs shard K of 2 (run K = 0 and K = 1
# side by side, one per core). Resumable: experiments/scripts/pcn_problems.sh skips the problems done.
set -euo pipefail
cd "$(dirname "$0")/../.."
export SHARD=${1:?usage: $0 K (0 or 1)}/2
nets=experiments/data/pcn/nets
for set in killallgo gomoku; do
  if [ $set = killallgo ]; then variants="x"; else variants="ndk 4t"; fi
  for v in $variants; do
    extra=() suf=""
    [ "$v" = 4t ] && extra=(--4t) && suf="-4t"
    [ "$v" = ndk ] && suf="-ndk"
    for algo in dfpn sb-gpn; do
      TAG=none$suf experiments/scripts/pcn_problems.sh solve $set $algo 2 "${extra[@]}"
      TAG=a0$suf experiments/scripts/pcn_problems.sh solve $set $algo 2 "${extra[@]}" --net $nets/$set-bmax.gpnn --pcn off --eval-init 8
      TAG=bmax$suf experiments/scripts/pcn_problems.sh solve $set $algo 2 "${extra[@]}" --net $nets/$set-bmax.gpnn --pcn b_max
      TAG=bheur$suf experiments/scripts/pcn_problems.sh solve $set $algo 2 "${extra[@]}" --net $nets/$set-bheur.gpnn --pcn b_heur
    done
    # PNS: the policy orders a node's children, the heads set their first numbers.
    if [ "$v" != ndk ]; then
      TAG=none$suf experiments/scripts/pcn_problems.sh solve $set pns 2 "${extra[@]}"
      TAG=a0$suf experiments/scripts/pcn_problems.sh solve $set pns 2 "${extra[@]}" --net $nets/$set-bmax.gpnn --pcn off --eval-init 8
      TAG=bmax$suf experiments/scripts/pcn_problems.sh solve $set pns 2 "${extra[@]}" --net $nets/$set-bmax.gpnn --pcn b_max
      TAG=bheur$suf experiments/scripts/pcn_problems.sh solve $set pns 2 "${extra[@]}" --net $nets/$set-bheur.gpnn --pcn b_heur
    fi
    # Focused DFPN without the widening (mu = 0): the policy orders, every move takes part.
    TAG=a0-mu0$suf experiments/scripts/pcn_problems.sh solve $set dfpn 2 "${extra[@]}" --net $nets/$set-bmax.gpnn --pcn off --eval-init 8 --focus 0
    TAG=bmax-mu0$suf experiments/scripts/pcn_problems.sh solve $set dfpn 2 "${extra[@]}" --net $nets/$set-bmax.gpnn --pcn b_max --focus 0
    TAG=bheur-mu0$suf experiments/scripts/pcn_problems.sh solve $set dfpn 2 "${extra[@]}" --net $nets/$set-bheur.gpnn --pcn b_heur --focus 0
  done
done

#!/usr/bin/env bash
# Plays the atlas on this machine, run by run, shard by shard, from a plan: one line per run,
# "<row> <first deal> <deals> <shards> <players>" (players default: solver). Shards already
# played are skipped and a killed shard resumes, so rerunning the same command picks up where
# the last one stopped; `touch results/atlas/STOP` ends it after the shard in progress.
#
#   nice -n 10 scripts/atlas/local.sh [scripts/atlas/plan.txt] [results/atlas]
#
# Then `npx tsx experiments/atlas.ts --merge` writes the atlas from every finished run.
set -euo pipefail
cd "$(dirname "$0")/../.."
plan="${1:-scripts/atlas/plan.txt}"
out="${2:-results/atlas}"
mkdir -p "$out"
grep -v '^#' "$plan" | while read -r row seed deals n players; do
  [ -n "$row" ] || continue
  for ((i = 0; i < n; i++)); do
    [ -e "$out/STOP" ] && exit 0
    echo "$(date +%T) $row $seed $deals $i/$n ${players:-solver}"
    node --import tsx experiments/atlas.ts --rows "$row" --seed "$seed" --deals "$deals" \
      --agent "${players:-solver}" --shard "$i/$n" --workers "${ATLAS_WORKERS:-1}" --quiet --out "$out"
  done
done

#!/usr/bin/env bash
# Plays the atlas on this machine, run by run, shard by shard, from a plan: one line per run,
# "<row> <first deal> <deals> <shards> <players>" (players default: solver). Each shard played
# to its end is listed in <out>/done.txt and skipped from then on, and a killed shard resumes,
# so rerunning the same command picks up where the last one stopped; `touch <out>/STOP` ends it
# after the shard in progress. Keep <out> outside the repository: its shard files grow large.
#
#   ATLAS_WORKERS=1 nice -n 10 scripts/atlas/local.sh [scripts/atlas/plan.txt] [results/atlas]
#
# Then `npx tsx experiments/atlas.ts --merge --shards <out> --out results/atlas` writes the atlas
# from every finished run (add --rows to leave out rows with a run still under way).
set -euo pipefail
cd "$(dirname "$0")/../.."
plan="${1:-scripts/atlas/plan.txt}"
out="${2:-results/atlas}"
mkdir -p "$out"
touch "$out/done.txt"
grep -v '^#' "$plan" | while read -r row seed deals n players; do
  [ -n "$row" ] || continue
  for ((i = 0; i < n; i++)); do
    [ -e "$out/STOP" ] && exit 0
    line="$row $seed $deals $i/$n ${players:-solver}"
    grep -qxF "$line" "$out/done.txt" && continue
    echo "$(date +%T) $line"
    node --import tsx experiments/atlas.ts --rows "$row" --seed "$seed" --deals "$deals" \
      --agent "${players:-solver}" --shard "$i/$n" --workers "${ATLAS_WORKERS:-1}" --quiet --out "$out"
    echo "$line" >>"$out/done.txt"
  done
done

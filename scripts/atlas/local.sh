#!/usr/bin/env bash
# Plays the atlas on this machine, run by run, shard by shard, from a plan: one line per run,
# "<row> <first deal> <deals> <shards> <players>" (players default: solver). Each shard played
# to its end is listed in <out>/done.txt and skipped from then on, and a killed shard resumes,
# so rerunning the same command picks up where the last one stopped; `touch <out>/STOP` ends it
# after the shards in progress. Keep <out> outside the repository: its shard files grow large.
#
#   ATLAS_LANES=2 ATLAS_WORKERS=1 nice -n 10 scripts/atlas/local.sh [scripts/atlas/plan.txt] [results/atlas]
#
# ATLAS_LANES (default 1) walks the plan with that many processes side by side, each taking the
# next shard no other lane holds (a lock per shard under <out>/claims/, let go when its process
# ends, even killed), so one lane per core keeps every core busy even on shards that are one
# block of deals (lookahead's runs of 1,000). ATLAS_WORKERS is each shard's --workers.
#
# Then `npx tsx experiments/atlas.ts --merge --shards <out> --out results/atlas` writes the atlas
# from every finished run (add --rows to leave out rows with a run still under way).
set -euo pipefail
cd "$(dirname "$0")/../.."
plan="${1:-scripts/atlas/plan.txt}"
out="${2:-results/atlas}"
lanes="${ATLAS_LANES:-1}"
if ! [[ "$lanes" =~ ^[1-9][0-9]?$ ]]; then
  echo "ATLAS_LANES must be a whole number from 1 to 99, got '$lanes'" >&2
  exit 2
fi
mkdir -p "$out/claims"
touch "$out/done.txt"

lane() {
  grep -v '^#' "$plan" | while read -r row seed deals n players; do
    [ -n "$row" ] || continue
    for ((i = 0; i < n; i++)); do
      [ -e "$out/STOP" ] && return 0
      line="$row $seed $deals $i/$n ${players:-solver}"
      grep -qxF "$line" "$out/done.txt" && continue
      # Another lane holds this shard: leave it and go on (flock exits 75 without running).
      rc=0
      flock -n -E 75 "$out/claims/${line//[ \/]/_}" bash -c '
        grep -qxF "$1" "$2/done.txt" && exit 0
        echo "$(date +%T) $1"
        node --import tsx experiments/atlas.ts --rows "$3" --seed "$4" --deals "$5" \
          --agent "$6" --shard "$7" --workers "${ATLAS_WORKERS:-1}" --quiet --out "$2"
        echo "$1" >>"$2/done.txt"' _ "$line" "$out" "$row" "$seed" "$deals" "${players:-solver}" "$i/$n" ||
        rc=$?
      [ "$rc" -eq 75 ] && continue
      [ "$rc" -eq 0 ] || return "$rc"
    done
  done
}

pids=()
for ((k = 0; k < lanes; k++)); do
  lane &
  pids+=($!)
  sleep 1 # lanes start apart, so each takes a different first shard
done
status=0
for p in "${pids[@]}"; do wait "$p" || status=$?; done
exit "$status"

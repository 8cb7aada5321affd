#!/bin/sh
# Rebuilds the shipped move-safety network (results/train-safety/run-links-scratch/last) from a
# fresh clone: labels 10,000 training deals (seeds 3,100,000-3,109,999) played in turn by four
# players, one of them the earlier shipped network results/train-safety/run-cards-4ep (a round
# of DAgger on its own positions), then trains with `penguin train safety`'s defaults, which are
# the shipped network's recipe.
#
#   scripts/rebuild-safety.sh OUT        writes OUT/labels (the dataset) and OUT/net (the run)
#
# Both steps continue where they stopped when run again with the same OUT (the dataset resumes
# shard by shard; a training run stopped by a signal resumes from its checkpoint). Set WORKERS
# (default 2) for the labelling.
set -eu
if [ $# -ne 1 ]; then
  echo "usage: scripts/rebuild-safety.sh OUT (a folder for the labels and the run)" >&2
  exit 2
fi
mkdir -p "$1"
out=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
penguin="node bin/penguin.js"
start=$(date +%s)
$penguin dataset --rules penguin \
  --agent "safe:order=lookahead:shuffle=0.2,safety:model=results/train-safety/run-cards-4ep,lookahead,safe:shuffle=0.3" \
  --seed 3100000 --deals 10000 --shard-deals 20 --workers "${WORKERS:-2}" --out "$out/labels"
echo "labels done after $(($(date +%s) - start)) s"
if [ -f "$out/net/resume/state.json" ]; then
  $penguin train --resume "$out/net"
else
  $penguin train safety --data "$out/labels" --out "$out/net"
fi
echo "network done after $(($(date +%s) - start)) s: $out/net/last"

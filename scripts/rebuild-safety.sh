#!/bin/sh
# Rebuilds the shipped move-safety network (models/safety, from results/learn/r1-w5/last) from a
# fresh clone, in two stages (docs/train-safety.md, docs/learn.md):
#  1. the base network (results/train-safety/run-links-scratch/last): labels 10,000 training
#     deals (seeds 3,100,000-3,109,999) played in turn by four players, one of them the earlier
#     network results/train-safety/run-cards-4ep, then trains with `penguin train safety`'s
#     defaults, which are the base network's recipe;
#  2. the fine-tuned one: the base network plays 1,200 training deals (seeds 4,000,000-4,001,199),
#     the solver labels every move of its own games, and 3 epochs at a tenth of the learning rate
#     add the fatal-move term (--critical-weight 5).
#
#   scripts/rebuild-safety.sh OUT   writes OUT/labels, OUT/net (base), OUT/own, OUT/tuned (shipped)
#
# Every step continues where it stopped when run again with the same OUT (a dataset resumes
# shard by shard; a training run resumes from its checkpoint). Set WORKERS (default 2) for the
# labelling.
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
# train RUN ARGS...: a finished run is kept, a stopped one resumes, else a new one starts.
train() {
  run=$1
  shift
  if [ -f "$run/last/model.json" ]; then
    :
  elif [ -f "$run/resume/state.json" ]; then
    $penguin train --resume "$run"
  else
    $penguin train safety --out "$run" "$@"
  fi
}
train "$out/net" --data "$out/labels"
echo "base network done after $(($(date +%s) - start)) s: $out/net/last"
$penguin dataset --rules penguin --agent "safety:model=$out/net/last" \
  --seed 4000000 --deals 1200 --shard-deals 20 --workers "${WORKERS:-2}" --out "$out/own"
echo "own-game labels done after $(($(date +%s) - start)) s"
train "$out/tuned" --data "$out/own" --model "$out/net/last" --keep-safe 0.5 \
  --safety-epochs 3 --lr 2e-4 --validation-deals 50 --thresholds 0.5 --critical-weight 5 \
  --weights-seed 1
echo "shipped network done after $(($(date +%s) - start)) s: $out/tuned/last"

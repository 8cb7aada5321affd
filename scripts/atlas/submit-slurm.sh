#!/usr/bin/env bash
# Submits the atlas to SLURM: an array of n shard tasks, then the merge once all n ended well.
#   scripts/atlas/submit-slurm.sh n [atlas options] (see atlas.sbatch)
# Jobs run in this repository (--chdir), so a relative --out is inside it. Logs go to $ATLAS_LOGS
# (default: the repository) as slurm-penguin-atlas-<job>_<task>.out and slurm-penguin-atlas-merge-<job>.out.
# Other sbatch options: SBATCH_* variables (e.g. SBATCH_PARTITION=long), which sbatch reads itself.
# Prints the two job ids: "<array job> <merge job>".
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
n="${1:-}"
if ! [[ "$n" =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: submit-slurm.sh n [atlas options]: n, the number of shards, is a whole number ≥ 1" >&2
  exit 2
fi
shift
logs="${ATLAS_LOGS:-$repo}"
array=$(sbatch --parsable --chdir="$repo" --output="$logs/slurm-%x-%A_%a.out" \
  --array="0-$((n - 1))" "$here/atlas.sbatch" "$@")
array="${array%%;*}"
merge=$(sbatch --parsable --chdir="$repo" --output="$logs/slurm-%x-%j.out" \
  --job-name=penguin-atlas-merge --dependency="afterok:${array}" --kill-on-invalid-dep=yes \
  "$here/atlas.sbatch" "$@")
echo "${array} ${merge%%;*}"

#!/usr/bin/env bash
# Writes compare-A--B.json for every pair below that has both CSVs, and prints one table row per pair.
cd "$(dirname "$0")/../.."
R=results/guided
# B may also be a CSV elsewhere in the repository, named by its path (its file name names the JSON).
pair() {
  local a=$1 b=$2 bf="$R/$2.csv"
  case $b in */*) bf=$b; b=$(basename "$b" .csv) ;; esac
  [ -f "$R/$a.csv" ] && [ -f "$bf" ] || return 0
  [ -e "$R/$a.csv.lock" ] || [ -e "$bf.lock" ] && return 0
  node bin/penguin.js compare "$R/$a.csv" "$bf" --json > "$R/compare-$a--$b.json"
  node -e '
    const j = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const p = (x) => (100 * x).toFixed(1);
    const f = (s) => `${s.wins}/${j.deals} = ${p(s.winRate)} % [${p(s.wilson95[0])}–${p(s.wilson95[1])}]`;
    console.log(`| ${process.argv[2]} | ${f(j.a)} | ${process.argv[3]} | ${f(j.b)} | ${j.aOnly} / ${j.bOnly} | ${j.mcnemarP.toPrecision(2)} |`);
  ' "$R/compare-$a--$b.json" "$a" "$b"
}
for n in 10 30 100 300; do
  for b in greedy lookahead es safety; do pair guided-greedy-$n-1-1000 $b-1-1000; done
done
for n in 10 30 100 300; do
  for b in guided-greedy-$n-1-1000 greedy-1-1000 lookahead-1-1000 es-1-1000 safety-1-1000; do pair guided-safety-root-$n-1-1000 $b; done
done
for n in 10 30 100 300; do
  [ -f "$R/guided-safety-root-$n-1-1000.csv" ] && [ ! -e "$R/guided-safety-root-$n-1-1000.csv.lock" ] && head -n 201 "$R/guided-safety-root-$n-1-1000.csv" > "$R/guided-safety-root-$n-1-200.csv"
  pair guided-safety-$n-1-200 guided-safety-root-$n-1-200
done
for n in 10 30 100 300 1000; do pair guided-greedy-$n-1-200 greedy-1-200; done
for n in 100 300 1000; do pair guided-greedy-stored-$n-1-200 greedy-1-200; done
for n in 10 30 100 300; do
  pair guided-safety-$n-1-200 guided-greedy-$n-1-200
  for b in greedy lookahead es safety; do pair guided-safety-$n-1-200 $b-1-200; done
done
for n in 10 30 100 300; do
  for b in greedy-f5 lookahead-f5 safety7net-f5 safety-f5; do pair guided-greedy-$n-f5-1-1000 $b-1-1000; done
done
for n in 10 30 100; do
  pair guided-safety-$n-f5-1-200 guided-greedy-$n-f5-1-200
  for b in greedy-f5 lookahead-f5 safety-f5; do pair guided-safety-$n-f5-1-200 $b-1-200; done
done
for b in guided-greedy-30-f5-1-49 greedy-f5-1-49 lookahead-f5-1-49 safety-f5-1-49; do pair guided-safety-30-f5-1-49 $b; done
for n in 10 30 100 300; do
  for b in guided-greedy-$n-f5-1-1000 greedy-f5-1-1000 lookahead-f5-1-1000 safety-f5-1-1000; do pair guided-safety-root-$n-f5-1-1000 $b; done
done
for b in greedy-1001-10000 es-1001-10000 safety-1001-10000; do pair guided-greedy-300-1001-10000 $b; done
for b in guided-greedy-300-1001-10000 greedy-1001-10000 es-1001-10000 safety-1001-10000; do pair guided-safety-root-300-1001-10000 $b; done
pair safety-f5-1-1000 greedy-f5-1-1000
pair safety-f5-1-1000 lookahead-f5-1-1000
pair safety-f5-1-1000 safety7net-f5-1-1000
for b in guided-safety-root-300-1-1000 guided-greedy-300-1-1000; do pair guided-safety-root-choice-300-1-1000 $b; done
for b in guided-greedy-300-1-200 guided-safety-root-300-1-200 greedy-1-200 lookahead-1-200; do pair guided-safety-choice-300-1-200 $b; done
# The links network (results/train-safety/run-links-scratch/last, 66.6 % at 1-ply on 1001-10000) at the root.
for n in 10 30 100 300; do
  for b in guided-greedy-$n-1-1000 guided-safety-root-$n-1-1000 greedy-1-1000 lookahead-1-1000 links-1-1000; do pair guided-safety-root-links-$n-1-1000 $b; done
done
pair guided-safety-root-links-10-1-1000 guided-greedy-30-1-1000
pair guided-safety-root-links-30-1-1000 guided-greedy-100-1-1000
for b in guided-greedy-10-1-200 guided-safety-root-links-10-1-200 lookahead-1-200 links-1-200; do pair guided-safety-links-10-1-200 $b; done
# The same on deals 1001-10000.
for n in 10 30 100; do pair guided-greedy-$n-1001-10000 greedy-1001-10000; done
for n in 10 30 100 300; do
  for b in guided-greedy-$n-1001-10000 guided-safety-root-$n-1001-10000 greedy-1001-10000 results/train-safety/lookahead-1001-10000.csv links-1001-10000; do pair guided-safety-root-links-$n-1001-10000 $b; done
done
pair guided-safety-root-links-10-1001-10000 guided-greedy-30-1001-10000
pair guided-safety-root-links-30-1001-10000 guided-greedy-100-1001-10000
for n in 30 100; do
  for b in guided-greedy-$n-1-200 guided-safety-root-links-$n-1-200 guided-safety-links-10-1-200 lookahead-1-200 links-1-200; do pair guided-safety-links-$n-1-200 $b; done
done
# The links network at the root with 5 flippers (it was trained on 7).
for n in 10 30 100 300; do
  for b in guided-greedy-$n-f5-1-1000 guided-safety-root-$n-f5-1-1000 greedy-f5-1-1000 lookahead-f5-1-1000 results/train-safety/safety-links-scratch-last-f5-1-1000.csv; do pair guided-safety-root-links-$n-f5-1-1000 $b; done
done
# The links network at the root with 5 flippers, deals 1001-10000.
for n in 10 30 100 300; do
  for b in guided-greedy-$n-f5-1001-10000 results/train-safety/greedy-f5-1001-10000.csv results/train-safety/lookahead-f5-1001-10000.csv results/train-safety/safety-links-scratch-last-f5-1001-10000.csv; do pair guided-safety-root-links-$n-f5-1001-10000 $b; done
done
pair guided-safety-root-links-10-f5-1001-10000 guided-greedy-30-f5-1001-10000

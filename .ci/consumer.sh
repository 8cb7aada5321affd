#!/usr/bin/env bash
# The package as a user gets it: npm pack, an offline install into a fresh "type": "module"
# project (from the cache that `npm ci` filled), then plain node, tsc against the shipped .d.ts,
# and the `penguin` command through npx.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$repo"
npm pack --silent --pack-destination "$work" --json > "$work/pack.json"
node -e 'const [p] = require(process.argv[1]); console.log(`package: ${p.filename}, ${(p.size / 1000).toFixed(1)} kB packed, ${(p.unpackedSize / 1000).toFixed(1)} kB unpacked (kB = 1000 bytes), ${p.entryCount} files`); if (p.unpackedSize >= 1_000_000) { console.error("package is over 1 MB unpacked"); process.exit(1); } if (!p.files.some((f) => f.path === "models/safety/weights.bin")) { console.error("the shipped safety network is missing from the package"); process.exit(1); }' "$work/pack.json"
tarball="$work/$(node -p 'require(process.argv[1])[0].filename' "$work/pack.json")"

mkdir "$work/app"
cd "$work/app"
# The repository's own TypeScript and Node types check the consumer (no more packages to fetch).
tsconfig() { # $1: files, $2: skipLibCheck
  printf '{ "compilerOptions": { "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext", "strict": true, "noEmit": true, "skipLibCheck": %s, "types": ["node"], "typeRoots": ["%s/node_modules/@types"] }, "files": ["%s"] }\n' "$2" "$repo" "$1"
}
tsconfig consumer.ts false > tsconfig.json
# penguin-gym/train too, without skipLibCheck: its declarations stand alone (TensorFlow.js's own do not
# pass a strict check, and it is an optional peer this project has not installed).
tsconfig consumer-train.ts false > tsconfig.train.json
cp "$repo/.ci/consumer/episode.mjs" "$repo/.ci/consumer/consumer.ts" "$repo/.ci/consumer/consumer-train.ts" .
cp "$tarball" .
printf '{ "name": "consumer", "private": true, "type": "module", "dependencies": { "penguin-gym": "file:%s" } }\n' "$(basename "$tarball")" > package.json
node "$repo/.ci/consumer/lock.mjs" "$repo/package-lock.json" "$(basename "$tarball")" > package-lock.json
# Install scripts are skipped: esbuild's only checks the platform binary that its optional package
# brings. TensorFlow.js is an optional peer: not installed here, as a user who does not train.
npm install --offline --prefer-offline --no-audit --no-fund --ignore-scripts --loglevel=error > /dev/null
node episode.mjs
node "$repo/node_modules/typescript/bin/tsc" -p tsconfig.json
echo "tsc --noEmit consumer.ts (main entry, declarations checked): ok"
node "$repo/node_modules/typescript/bin/tsc" -p tsconfig.train.json
echo "tsc --noEmit consumer-train.ts (penguin-gym/train, declarations checked): ok"
npx penguin deal --seed 1 --json
npx penguin eval --agent greedy --deals 5
# Worker threads from the installed package load its built modules (rows identical to one thread).
npx penguin eval --agent greedy --deals 5 --workers 2
# The shipped safety network plays without TensorFlow.js.
npx penguin eval --agent safety --deals 3
# Training without TensorFlow.js: one line naming what to install, exit code 2.
if npx penguin train ppo --out runs/x 2> train.err; then echo "train ran without TensorFlow.js"; exit 1; fi
cat train.err
grep -q "npm install @tensorflow/tfjs" train.err
test "$(wc -l < train.err)" -eq 1

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
node -e 'const [p] = require(process.argv[1]); console.log(`package: ${p.filename}, ${(p.size / 1000).toFixed(1)} kB packed, ${(p.unpackedSize / 1000).toFixed(1)} kB unpacked (kB = 1000 bytes), ${p.entryCount} files`); if (p.unpackedSize >= 400_000) { console.error("package is over 400 kB unpacked"); process.exit(1); }' "$work/pack.json"
tarball="$work/$(node -p 'require(process.argv[1])[0].filename' "$work/pack.json")"

mkdir "$work/app"
cd "$work/app"
# The repository's own TypeScript and Node types check the consumer (no more packages to fetch).
tsconfig() { # $1: files, $2: skipLibCheck
  printf '{ "compilerOptions": { "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext", "strict": true, "noEmit": true, "skipLibCheck": %s, "types": ["node"], "typeRoots": ["%s/node_modules/@types"] }, "files": ["%s"] }\n' "$2" "$repo" "$1"
}
tsconfig consumer.ts false > tsconfig.json
tsconfig consumer-train.ts true > tsconfig.train.json
cp "$repo/.ci/consumer/episode.mjs" "$repo/.ci/consumer/consumer.ts" "$repo/.ci/consumer/consumer-train.ts" .
cp "$tarball" .
printf '{ "name": "consumer", "private": true, "type": "module", "dependencies": { "penguin-gym": "file:%s" } }\n' "$(basename "$tarball")" > package.json
node "$repo/.ci/consumer/lock.mjs" "$repo/package-lock.json" "$(basename "$tarball")" > package-lock.json
# Install scripts are skipped: tfjs-node's would download its native library (training then falls
# back to wasm), and esbuild's only checks the platform binary that its optional package brings.
npm install --offline --prefer-offline --no-audit --no-fund --ignore-scripts --loglevel=error > /dev/null
node episode.mjs
node "$repo/node_modules/typescript/bin/tsc" -p tsconfig.json
echo "tsc --noEmit consumer.ts (main entry, declarations checked): ok"
node "$repo/node_modules/typescript/bin/tsc" -p tsconfig.train.json
echo "tsc --noEmit consumer-train.ts (penguin-gym/train): ok"
npx penguin deal --seed 1 --json
npx penguin eval --agent greedy --deals 5
# Worker threads from the installed package load its built modules (rows identical to one thread).
npx penguin eval --agent greedy --deals 5 --workers 2

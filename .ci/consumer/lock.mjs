// Writes the consumer project's package-lock.json: the package tarball plus exactly the run-time
// packages (and versions) of this repository's lock, so an offline install needs nothing beyond
// the tarballs `npm ci` put in the cache. Usage: node lock.mjs REPO_LOCK TARBALL_NAME > package-lock.json
import { readFileSync } from "node:fs";

const [lockPath, tarball] = process.argv.slice(2);
const lock = JSON.parse(readFileSync(lockPath, "utf8"));
const self = lock.packages[""];
const packages = {
  "": { name: "consumer", dependencies: { [self.name]: `file:${tarball}` } },
  [`node_modules/${self.name}`]: {
    version: self.version,
    resolved: `file:${tarball}`,
    license: self.license,
    dependencies: self.dependencies,
    peerDependencies: self.peerDependencies,
    peerDependenciesMeta: self.peerDependenciesMeta,
    bin: self.bin,
    engines: self.engines,
  },
};
for (const [path, entry] of Object.entries(lock.packages)) {
  if (path === "" || entry.dev) continue;
  const { devOptional, ...rest } = entry;
  packages[path] = devOptional ? { ...rest, optional: true } : rest;
}
process.stdout.write(
  JSON.stringify({ name: "consumer", lockfileVersion: 3, requires: true, packages }, null, 2) +
    "\n",
);

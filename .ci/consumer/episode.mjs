// Plain Node, the installed package: the import's cost, then one seeded episode (first legal
// action each step). Fails if the import takes 0.5 s of CPU or more.
const cpu = process.cpuUsage();
const t0 = performance.now();
const { envIdForPreset, makeEnv } = await import("penguin-gym");
const importMs = performance.now() - t0;
const c = process.cpuUsage(cpu);
const importCpuMs = (c.user + c.system) / 1000;
console.log(
  `import "penguin-gym": ${importMs.toFixed(0)} ms wall, ${importCpuMs.toFixed(0)} ms CPU`,
);
if (importCpuMs >= 500) throw new Error("importing penguin-gym must take under 0.5 s");

const env = makeEnv(envIdForPreset("penguin"), { maxSteps: 200 });
let { info } = env.reset({ seed: 1 });
let steps = 0;
for (;;) {
  const r = env.step(info.actionMask.indexOf(1));
  steps++;
  info = r.info;
  if (r.terminated || r.truncated) break;
}
console.log(
  `episode: ${steps} steps, ${info.cardsHome} cards home, won ${info.won}, return ${info.episodeReturn.toFixed(4)}`,
);

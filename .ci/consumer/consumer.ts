// A user's TypeScript against the shipped .d.ts of the main entry: tsc --noEmit, strict, with
// the package's declarations checked too (no skipLibCheck).
import {
  checkEnv,
  deal,
  ENV_IDS,
  legalMoves,
  makeEnv,
  moveToString,
  resolveRules,
  solve,
  VecEnv,
  type EnvId,
  type Rules,
  type SolveResult,
} from "penguin-gym";

const id: EnvId = ENV_IDS[0];
const env = makeEnv(id, { cells: 5, reward: "win" });
const { info } = env.reset({ seed: 42 });
const mask: Uint8Array = info.actionMask;
const step = env.step(mask.indexOf(1));
const done: boolean = step.terminated || step.truncated;
const report = checkEnv(env, { episodes: 2, seed: 1 });
const rules: Rules = resolveRules("penguin", { cells: 7 });
const moves: string[] = legalMoves(deal(rules, 1)).map((m) => moveToString(m, deal(rules, 1)));
const result: SolveResult = solve(deal(rules, 1), { maxStates: 10_000 });
const vec = new VecEnv(4, id);
console.log(done, report.positions, moves.length, result.result, vec.n);

/**
 * A choice network's best fresh move (as `--agent safety` plays it with order=net) with a
 * risk-objective network as its veto: a hard one (only moves whose loss probability is at most
 * tau, when any fresh move passes) and/or a soft one (the choice logit minus lambda × the risk
 * network's logit). Plays seeded deals under the never-repeat guard and prints one line per
 * setting: wins, the rate with its 95 % Wilson interval, and CPU seconds.
 *
 *   npx tsx scripts/safety-veto.ts CHOICE_MODEL RISK_MODEL FIRST_SEED DEALS tau,lambda [tau,lambda …]
 *
 * tau = 1 and lambda = 0 is the choice network alone.
 */
import type { Agent, AgentInput } from "../src/agents/agent.js";
import { actEach } from "../src/agents/agent.js";
import { PositionSet } from "../src/agents/repeat-guard.js";
import { deal } from "../src/engine/deal.js";
import { resolveRules } from "../src/engine/rules.js";
import type { State } from "../src/engine/state.js";
import { ActionCodec } from "../src/env/actions.js";
import { EpisodeRunner } from "../src/eval/game-loop.js";
import { wilson } from "../src/eval/stats.js";
import { SafetyView } from "../src/train/safety/agent.js";
import { loadSafety } from "../src/train/safety/model.js";

const [choiceModel, riskModel, first, count, ...settings] = process.argv.slice(2);
const from = Number(first);
const n = Number(count);
const parsed = settings.map((t) => t.split(",").map(Number));
if (
  !choiceModel ||
  !riskModel ||
  !Number.isInteger(from) ||
  !(Number.isInteger(n) && n >= 1) ||
  parsed.length === 0 ||
  parsed.some((p) => p.length !== 2 || !(p[0]! >= 0 && p[0]! <= 1) || !(p[1]! >= 0))
) {
  console.error(
    "usage: npx tsx scripts/safety-veto.ts CHOICE_MODEL RISK_MODEL FIRST_SEED DEALS tau,lambda … (tau from 0 to 1, lambda ≥ 0)",
  );
  process.exit(2);
}
const rules = resolveRules("penguin");
const codec = new ActionCodec(rules);
const choice = loadSafety(choiceModel).weights;
const risk = loadSafety(riskModel).weights;
if (choice.config.objective !== "choice" || risk.config.objective === "choice") {
  console.error("safety-veto: give a choice network first and a risk network second");
  process.exit(2);
}
const cv = new SafetyView(codec, choice);
const rv = new SafetyView(codec, risk);

class Vetoed implements Agent {
  readonly name: string;
  private readonly seen = new PositionSet();
  private readonly none = new PositionSet();
  constructor(
    private readonly tau: number,
    private readonly lambda: number,
  ) {
    this.name = `veto(tau=${tau},lambda=${lambda})`;
  }
  reset(start: State): void {
    this.seen.clear();
    this.seen.add(start.hashLo, start.hashHi);
  }
  act(input: AgentInput): number {
    const s = input.state;
    this.seen.add(s.hashLo, s.hashHi);
    cv.look(s, this.seen);
    const useRisk = this.tau < 1 || this.lambda > 0;
    if (useRisk) rv.look(s, this.none);
    const fresh = cv.view.guarded;
    let passes = false;
    for (let a = 0; a < codec.n; a++)
      if (fresh[a] === 1 && (this.tau >= 1 || rv.risk[a]! <= this.tau)) passes = true;
    let best = -1;
    let bestV = -Infinity;
    for (let a = 0; a < codec.n; a++) {
      if (fresh[a] !== 1 || (passes && this.tau < 1 && rv.risk[a]! > this.tau)) continue;
      // cv.risk = 1 − e^(z − z_top): the log of 1 − risk is the choice logit up to a constant.
      let v = Math.log(Math.max(1e-12, 1 - cv.risk[a]!));
      if (this.lambda > 0) {
        const p = Math.min(1 - 1e-6, Math.max(1e-6, rv.risk[a]!));
        v -= this.lambda * Math.log(p / (1 - p));
      }
      if (v > bestV) [bestV, best] = [v, a];
    }
    if (best >= 0) return best;
    for (let a = 0; a < codec.n; a++) if (cv.view.mask[a] === 1) return a;
    throw new Error("no legal move");
  }
  actBatch(inputs: readonly AgentInput[], out: Int32Array): void {
    actEach(this, inputs, out);
  }
}

for (const [tau, lambda] of parsed) {
  const runner = new EpisodeRunner(rules, new Vetoed(tau!, lambda!));
  const t0 = process.cpuUsage();
  let won = 0;
  for (let i = 0; i < n; i++) if (runner.play(deal(rules, from + i), from + i).won) won++;
  const ci = wilson(won, n);
  const c = process.cpuUsage(t0);
  console.log(
    `tau=${tau} lambda=${lambda}: ${won}/${n} = ${((100 * won) / n).toFixed(1)} % [${(100 * ci.low).toFixed(1)}–${(100 * ci.high).toFixed(1)}], ${((c.user + c.system) / 1e6).toFixed(0)} CPU s`,
  );
}

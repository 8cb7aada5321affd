// At la-fl's own critical positions: how often does lookahead's pick lose?
import { PACK_STRIDE, unpackState, Unpacker } from "../src/train/dataset.js";
import { loadDataset } from "../src/train/safety/dataset.js";
import { decisionStarts } from "../src/train/safety/choice.js";
import { createAgent } from "../src/agents/registry.js";
import { ActionCodec } from "../src/env/actions.js";
const ds = loadDataset([process.argv[2]!]);
const first = decisionStarts(ds);
const un = new Unpacker(ds.index.rules);
const rules = un.state(ds.before[0]!).rules;
const agent = await createAgent("lookahead", {}, rules);
const codec = new ActionCodec(rules);
const mask = new Uint8Array(codec.n), moves = new Int32Array(codec.n);
let crit = 0, netMiss = 0, lookMiss = 0, both = 0, onlyNet = 0, onlyLook = 0;
for (let d = 0; d < ds.deal.length; d++) {
  let lost = 0, win = 0, playedLost = false;
  for (let k = first[d]!; k < first[d + 1]!; k++) { if (ds.label[k] === 0) lost++; if (ds.label[k] === 1) win++; if (ds.played[k] === 1 && ds.label[k] === 0) playedLost = true; }
  if (lost === 0 || win === 0) continue;
  crit++;
  const s = un.state(ds.before[d * PACK_STRIDE]!);
  unpackState(ds.before, d * PACK_STRIDE, s); s.rehash();
  agent.reset(s, d);
  codec.fillMask(s, mask, moves);
  const a = agent.act({ state: s, mask, observation: new Float32Array(0), codec, actionMoves: moves });
  const m = moves[a]!;
  let lab = -1;
  for (let k = first[d]!; k < first[d + 1]!; k++) if (ds.move[k] === m) lab = ds.label[k]!;
  const lm = lab === 0;
  if (playedLost) netMiss++;
  if (lm) lookMiss++;
  if (lm && playedLost) both++; else if (playedLost) onlyNet++; else if (lm) onlyLook++;
}
console.log(JSON.stringify({ crit, netMiss, lookMiss, both, onlyNet, onlyLook }));

/**
 * The policy network: an MLP from the observation to one logit per action id, with a value head
 * for PPO. Built with tfjs-layers so it saves as a standard model.json + weights.bin; initial
 * weights come from seeded Glorot initialisers, so the same seed gives the same network.
 */
import { tf } from "./backend.js";
import type { NetConfig } from "../players/policy/model.js";

export type { NetConfig };

export interface PolicyNet {
  readonly model: tf.LayersModel;
  readonly config: NetConfig;
}

export function buildPolicyNet(config: NetConfig): PolicyNet {
  const { obsSize, actions, hidden, seed } = config;
  const input = tf.input({ shape: [obsSize], name: "observation" });
  let x: tf.SymbolicTensor = input;
  hidden.forEach((h, i) => {
    x = tf.layers
      .dense({
        units: h,
        activation: "relu",
        name: `trunk_${i}`,
        kernelInitializer: tf.initializers.glorotUniform({ seed: seed * 16 + i }),
      })
      .apply(x) as tf.SymbolicTensor;
  });
  // Small initial logits (CleanRL scales the policy layer's init by 0.01): a near-uniform start.
  const logits = tf.layers
    .dense({
      units: actions,
      name: "policy",
      kernelInitializer: tf.initializers.randomUniform({
        minval: -0.01,
        maxval: 0.01,
        seed: seed * 16 + 14,
      }),
    })
    .apply(x) as tf.SymbolicTensor;
  const value = tf.layers
    .dense({
      units: 1,
      name: "value",
      kernelInitializer: tf.initializers.glorotUniform({ seed: seed * 16 + 15 }),
    })
    .apply(x) as tf.SymbolicTensor;
  const model = tf.model({ inputs: input, outputs: [logits, value], name: "penguin_policy" });
  return { model, config };
}

/** Runs the net on a batch; returns [logits (batch×actions), value (batch×1)]. Caller disposes. */
export function forward(net: PolicyNet, obs: tf.Tensor2D): [tf.Tensor2D, tf.Tensor2D] {
  const out = net.model.apply(obs) as tf.Tensor[];
  return [out[0] as tf.Tensor2D, out[1] as tf.Tensor2D];
}

/** One batched inference call from typed arrays: fills logits (batch*actions) and values (batch). */
export function inferBatch(
  net: PolicyNet,
  obs: Float32Array,
  batch: number,
  logitsOut: Float32Array,
  valuesOut?: Float32Array,
): void {
  const { obsSize } = net.config;
  const [l, v] = tf.tidy(() =>
    forward(net, tf.tensor2d(obs.subarray(0, batch * obsSize), [batch, obsSize])),
  );
  logitsOut.set(l.dataSync() as Float32Array);
  if (valuesOut) valuesOut.set(v.dataSync() as Float32Array);
  l.dispose();
  v.dispose();
}

/** The network as the policy agent's inference (src/players/policy/agent.ts), on TensorFlow.js. */
export function tfInference(net: PolicyNet): {
  config: NetConfig;
  infer(obs: Float32Array, batch: number, logitsOut: Float32Array): void;
} {
  return { config: net.config, infer: (obs, batch, out) => inferBatch(net, obs, batch, out) };
}

/** The trainable variables in a fixed order (the order of model.trainableWeights). */
export function trainableVariables(net: PolicyNet): tf.Variable[] {
  return net.model.trainableWeights.map((w) => w.read() as tf.Variable);
}

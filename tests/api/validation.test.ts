/**
 * The library refuses impossible states and malformed arguments with a named error class
 * (InvalidStateError, InvalidArgumentError, IllegalMoveError: all UsageErrors) instead of
 * accepting them, playing on from a corrupted position, or failing with a raw TypeError.
 */
import { describe, expect, it } from "vitest";
import {
  applyMove,
  applyMoveUnchecked,
  checkEnv,
  createAgent,
  deal,
  deserializeEnv,
  isLegal,
  legalMoves,
  makeEnv,
  mcnemarExact,
  parseBoard,
  resolveRules,
  solve,
  type StepResult,
  wilson,
} from "../../src/index.js";
import {
  IllegalMoveError,
  InvalidArgumentError,
  InvalidStateError,
  UsageError,
} from "../../src/errors.js";

const penguin = resolveRules("penguin");

/** A serialized Penguin-v3 env after reset(5), as an object to edit. */
function saved(): Record<string, unknown> & { columns: string[][]; found: number[] } {
  const env = makeEnv("Penguin-v3");
  env.reset({ seed: 5 });
  return JSON.parse(env.serialize());
}
const restore = (d: unknown): unknown => deserializeEnv(JSON.stringify(d));

describe("deserializeEnv checks every field and the 52-card invariant", () => {
  it("accepts its own text", () => {
    expect(() => restore(saved())).not.toThrow();
  });
  it("refuses a duplicated card, 51 cards and 53 cards", () => {
    const dup = saved();
    dup.columns[1]![0] = dup.columns[0]![0]!;
    expect(() => restore(dup)).toThrow(InvalidStateError);
    expect(() => restore(dup)).toThrow(/appears twice/);
    const short = saved();
    short.columns[0]!.pop();
    expect(() => restore(short)).toThrow(/1 card\(s\) missing/);
    const long = saved();
    long.columns[0]!.push(long.columns[1]![0]!);
    expect(() => restore(long)).toThrow(/appears twice/);
  });
  it("refuses full foundations with cards on the table, and a foundation count of -1", () => {
    const full = saved();
    full.found = [13, 13, 13, 13];
    expect(() => restore(full)).toThrow(/appears twice/);
    const neg = saved();
    neg.found = [-1, 0, 0, 0];
    expect(() => restore(neg)).toThrow(/found must be 4 counts of 0\.\.13/);
  });
  it("refuses base 99 and -1, steps -5, and a FreeCell-v3 state restored into Penguin", () => {
    for (const base of [99, -1, 1.5]) {
      const d = saved();
      d.base = base;
      expect(() => restore(d)).toThrow(/base must be a rank index 0\.\.12/);
    }
    const steps = saved();
    steps.steps = -5;
    expect(() => restore(steps)).toThrow(/steps must be an integer from 0/);
    const fc = makeEnv("FreeCell-v3");
    fc.reset({ seed: 3 });
    expect(() => makeEnv("Penguin-v3").restore(JSON.parse(fc.serialize()))).toThrow(
      InvalidStateError,
    );
    const relabelled = JSON.parse(fc.serialize());
    relabelled.id = "Penguin-v3";
    relabelled.options = {};
    expect(() => restore(relabelled)).toThrow(/columns must be a list of 7 columns/);
  });
  it('names the field for cells: "x" and columns: null (no TypeError)', () => {
    const cells = saved();
    cells.cells = "x";
    expect(() => restore(cells)).toThrow(/cells must be a list of 7 flippers/);
    const cols = saved();
    cols.columns = null as unknown as string[][];
    expect(() => restore(cols)).toThrow(/columns must be a list of 7 columns .* got null/);
    const flags = saved();
    flags.over = "yes";
    expect(() => restore(flags)).toThrow(/over must be true or false/);
    expect(() => deserializeEnv("null")).toThrow(InvalidStateError);
  });
  it("leaves the env unchanged when restore refuses", () => {
    const env = makeEnv("Penguin-v3");
    env.reset({ seed: 7 });
    const before = env.serialize();
    const d = saved();
    d.found = [0, 0, 0, 14];
    expect(() => env.restore(d as never)).toThrow(InvalidStateError);
    expect(env.serialize()).toBe(before);
  });
});

describe("the public applyMove refuses what isLegal refuses", () => {
  it("refuses an illegal move without changing the board; the unchecked one is named so", () => {
    const s = deal(penguin, 1);
    const before = s.clone();
    expect(isLegal(s, 123456789)).toBe(false);
    expect(() => applyMove(s, 123456789)).toThrow(IllegalMoveError);
    expect(s.equals(before)).toBe(true);
    for (const bad of [1.5, Number.NaN, "3", 2 ** 40])
      expect(() => applyMove(s, bad as number)).toThrow(InvalidArgumentError);
    const m = legalMoves(s)[0]!;
    applyMove(s, m);
    expect(s.equals(before)).toBe(false);
    const t = before.clone();
    applyMoveUnchecked(t, m);
    expect(t.equals(s)).toBe(true);
  });
});

describe("solve checks its input and options", () => {
  it("refuses a non-position with InvalidArgumentError, not a TypeError", () => {
    for (const bad of [null, {}, "penguin-board 1"])
      expect(() => solve(bad as never)).toThrow(InvalidArgumentError);
  });
  it("refuses timeoutMs -1 or NaN and unknown option keys", () => {
    const s = deal(penguin, 1);
    expect(() => solve(s, { timeoutMs: -1 })).toThrow(/timeoutMs must be a number/);
    expect(() => solve(s, { timeoutMs: Number.NaN })).toThrow(/timeoutMs/);
    expect(() => solve(s, { maxState: 10 } as never)).toThrow(
      /unknown solve option "maxState"; allowed: maxStates, timeoutMs, plan/,
    );
    expect(() => solve(s, { maxStates: 0 })).toThrow(InvalidArgumentError);
  });
});

describe("other entry points refuse what they used to accept silently", () => {
  it("deal refuses NaN and an object as a seed", () => {
    expect(() => deal(penguin, Number.NaN)).toThrow(InvalidArgumentError);
    expect(() => deal(penguin, {} as never)).toThrow(/a seed is an integer .* or a string/);
    expect(() => deal(penguin, 1.5)).toThrow(InvalidArgumentError);
    expect(deal(penguin, "abc").equals(deal(penguin, "abc"))).toBe(true);
  });
  it("resolveRules refuses unknown keys", () => {
    expect(() => resolveRules("penguin", { cell: 3 } as never)).toThrow(
      /unknown rule option "cell"; allowed: cells, /,
    );
    expect(() => resolveRules("penguin", "x" as never)).toThrow(InvalidArgumentError);
  });
  it("reset refuses unknown keys, non-objects, a null seed and a bigint seed", () => {
    const env = makeEnv("Penguin-v3");
    expect(() => env.reset({ frob: 1 } as never)).toThrow(/unknown reset option "frob"/);
    expect(() => env.reset("seed" as never)).toThrow(/reset takes an options object/);
    expect(() => env.reset({ seed: null } as never)).toThrow(/seed must be an integer, got null/);
    expect(() => env.reset({ seed: 5n } as never)).toThrow(/got 5n \(a bigint\)/);
  });
  it("step names a non-number action by its type", () => {
    const env = makeEnv("Penguin-v3");
    env.reset({ seed: 5 });
    expect(() => env.step("3" as never)).toThrow(/action must be a number .* got "3" \(a string\)/);
    expect(() => env.step([7] as never)).toThrow(/got an array/);
    expect(() => env.step(1n as never)).toThrow(/got 1n \(a bigint\)/);
  });
  it("parseBoard names a non-string board", () => {
    expect(() => parseBoard(42 as never, penguin)).toThrow(/a board is text \(a string\), got 42/);
  });
  it("wilson and mcnemarExact refuse impossible counts", () => {
    expect(() => wilson(5, 3)).toThrow(/wins must be an integer from 0 to n \(3\)/);
    expect(() => wilson(Number.NaN, 10)).toThrow(InvalidArgumentError);
    expect(() => wilson(1, -2)).toThrow(InvalidArgumentError);
    expect(() => mcnemarExact(-1, 3)).toThrow(/aOnly must be a count/);
    expect(wilson(0, 0)).toEqual({ low: 0, high: 1 });
    expect(mcnemarExact(0, 0)).toBe(1);
  });
  it("createAgent refuses a numeric option given as text", async () => {
    await expect(createAgent("lookahead", { depth: "3" }, penguin)).rejects.toThrow(
      /--depth must be an integer from 1 to 8, got "3" \(a string\)/,
    );
    await expect(createAgent("lookahead", { depth: 3 }, penguin)).resolves.toBeDefined();
  });
  it("checkEnv names the broken promise of an env that never ends its episodes", () => {
    const env = makeEnv("Penguin-v3", { maxSteps: 500 });
    const step = env.step.bind(env);
    env.step = (a): StepResult => ({ ...step(a), terminated: false, truncated: false });
    expect(() => checkEnv(env)).toThrow(
      /no action is legal .* but the last step set neither terminated nor truncated|still running after maxSteps/,
    );
    expect(() => checkEnv(env)).not.toThrow(/action undefined/);
  });
  it("every new error is a UsageError (the command line's exit code 2)", () => {
    expect(new InvalidStateError("x")).toBeInstanceOf(UsageError);
    expect(new InvalidArgumentError("x")).toBeInstanceOf(UsageError);
  });
});

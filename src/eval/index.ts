/**
 * Evaluation library: play deals with any registered agent and write resumable result CSVs.
 *
 * Deals
 *   type DealRef = { kind: "seed", seed } | { kind: "ms", n }
 *   seedRange(from, count), msRange(from, to)       lazy DealRange (length, at(i), iterable); at most
 *   MAX_DEALS; UsageError on bad input. Any DealList (an array or a range) can be evaluated.
 *   dealLabel(d) ("17" | "ms:17"), parseDealLabel, dealState(rules, d), agentSeed(d), dealOrderKey(d)
 * One game
 *   new EpisodeRunner(rules, agent).play(start, seed, maxSteps?) -> { won, cardsHome, moves }
 *   playDeal(agent, rules, start, seed, maxSteps?)   (engine + ActionCodec; the observation is
 *   encoded only when agent.needsObservation). Lost when no legal move is left or after maxSteps
 *   moves (default: defaultMaxSteps(rules), the limit the game's env id registers).
 * Many games
 *   evaluate({ agent, agentOptions, rules, deals, workers?, maxSteps?, timing? })
 *     -> AsyncGenerator<EvalRow>, rows in deal order; workers > 1 uses worker_threads, and rows are identical for any number of workers.
 *   runEval({ ...spec, out?, onRow?, onOpen? }) -> { summary, agent, rules, skipped }: evaluate +
 *     the resumable CSV with columns EVAL_COLUMNS (deal, rules, agent, won, cards_home, moves, ms);
 *     every row read back is checked (won, cards home, moves, one deal kind, one timing mode).
 * CSV (reusable with other columns)
 *   ResumableCsv.open({ path, columns, fixed, onRow }) -> .rows, .append(rows), .close()
 *   locks the file, refuses (UsageError, file untouched) a device/FIFO/directory, other columns,
 *   other `fixed` values or a row `onRow` rejects; drops a partial last line left by a killed run;
 *   appends whole lines only. csvLine(values); reading CSV is src/util/csv (csv-parse).
 * Statistics
 *   wilson(wins, n) -> { low, high }; summarize(outcomes, played?, seconds?) -> Summary; formatSummary.
 */
export {
  type DealRef,
  type DealList,
  DealRange,
  MAX_DEALS,
  dealLabel,
  parseDealLabel,
  dealState,
  agentSeed,
  seedRange,
  msRange,
} from "./deals.js";
export {
  type Interval,
  type GameOutcome,
  type Summary,
  wilson,
  mcnemarExact,
  summarize,
  formatSummary,
} from "./stats.js";
export { EpisodeRunner, playDeal } from "./game-loop.js";
export { type CsvValue, type CsvSpec, ResumableCsv, csvLine } from "./csv.js";
export { type EvalSpec, type EvalRow, evaluate, agentLabel } from "./evaluate.js";
export { type RunEvalOptions, type RunEvalResult, EVAL_COLUMNS, runEval } from "./run.js";

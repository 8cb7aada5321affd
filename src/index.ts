/**
 * penguin-gym: the main entry. The engine, the environment (with checkEnv), agents, the solver and
 * batch evaluation. Training and the policy agents are in "penguin-gym/train", so importing this
 * entry never loads TensorFlow.js or vega. Every name is listed on purpose: the API report test
 * (tests/api) holds the sorted list, so changing the API means changing that file too.
 */
// the error classes every layer throws
export { UsageError, IllegalMoveError } from "./errors.js";
// the rules engine
export {
  type Card, SUITS, RANKS, NO_CARD, rankOf, suitOf, colorOf, makeCard, cardToString, parseCard,
  parseRank, type EmptyColumnRule, type GroupMoveRule, type BuildRule, type BaseRule,
  type FoundationRule, type DealLayout, type PresetName, type Rules, type RuleOverrides,
  EMPTY_COLUMN_RULES, GROUP_MOVE_RULES, BUILD_RULES, BASE_RULES, FOUNDATION_RULES, DEAL_LAYOUTS,
  PRESETS, PRESET_NAMES, isPresetName, resolveRules, rulesLabel, State, MAX_COLUMNS, MAX_CELLS,
  type Move, CELL0, FOUNDATION, MAX_MOVES, moveFrom, moveTo, moveCount, moveCard, moveToEmpty,
  moveFoundation, moveAutoHome, autoHomeSuit, makeMove, generateMoves, applyMove, undoMove,
  isLegal, legalMoves, type Seed, MS_MAX, msDeck, seededDeck, deal, dealMs, moveToString,
  parseMove, formatBoard, parseBoard, formatFcsBoard, parseFcsBoard, readBoardFile,
  type RenderOptions, renderBoard, renderCard
} from "./engine/index.js";
// the environment and its checker
export {
  ActionCodec, ObservationEncoder, observationSize, type RewardMode, type ShuffleSource,
  type EnvSettings, type EnvOptions, type EnvId, type EnvSpec, ENV_IDS, ENV_SPECS, isEnvId,
  envSpec, envIdForPreset, type EnvInfo, type ResetResult, type StepResult, type ResetOptions,
  type SerializedEnv, InvalidActionError, PenguinEnv, DEFAULT_SEED, makeEnv, deserializeEnv,
  type AutoresetMode, type VecStepResult, VecEnv, renderState, type CheckEnvOptions,
  type CheckEnvReport, checkEnv
} from "./env/index.js";
// agents
export {
  type Agent, type AgentInput, type AgentOptions, type AgentFactory, actionOf, actEach,
  RandomAgent, GreedyAgent, LookaheadAgent, type Weights, HEURISTIC_PRESETS, HEURISTIC_NAMES,
  DEFAULT_HEURISTIC, FEATURE_NAMES, type AgentEntry, agentNames, agentEntries, registerAgent,
  getAgentEntry, createAgent
} from "./agents/index.js";
// the exact solver
export {
  solve, replayWins, lineText, DEFAULT_MAX_STATES, MAX_STATES_LIMIT, type SolveOptions,
  type SolveResult, type SolveStats, type UnknownReason, shortenSolution, SolverAgent,
  WEIGHT_SETS, PLANS, defaultPlan, type SolvePlan, type PlanStep, type Strategy, type ScoreWeights
} from "./solver/index.js";
// batch evaluation, CSV and statistics
export {
  type DealRef, type DealList, DealRange, MAX_DEALS, dealLabel, parseDealLabel, dealState,
  agentSeed, seedRange, msRange, type Interval, type GameOutcome, type Summary, wilson,
  mcnemarExact, summarize, formatSummary, DEFAULT_MAX_STEPS, EpisodeRunner, playDeal,
  type CsvValue, type CsvSpec, ResumableCsv, csvLine, type EvalSpec, type EvalRow, evaluate,
  agentLabel, type RunEvalOptions, type RunEvalResult, EVAL_COLUMNS, runEval
} from "./eval/index.js";

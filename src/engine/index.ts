/**
 * The rules engine: rule sets as data, cards, deals (seeded and Microsoft), positions, move
 * generation, the play notation and board formats. Every name is listed on purpose; the API
 * report test (tests/api) holds the list.
 */
export {
  type Card,
  SUITS,
  RANKS,
  NO_CARD,
  rankOf,
  suitOf,
  colorOf,
  makeCard,
  cardToString,
  parseCard,
  parseRank,
} from "./card.js";
export {
  type EmptyColumnRule,
  type GroupMoveRule,
  type BuildRule,
  type BaseRule,
  type FoundationRule,
  type DealLayout,
  type PresetName,
  type Rules,
  type RuleOverrides,
  EMPTY_COLUMN_RULES,
  GROUP_MOVE_RULES,
  BUILD_RULES,
  BASE_RULES,
  FOUNDATION_RULES,
  DEAL_LAYOUTS,
  PRESETS,
  PRESET_NAMES,
  isPresetName,
  resolveRules,
  rulesLabel,
} from "./rules.js";
export { State, MAX_COLUMNS, MAX_CELLS } from "./state.js";
export {
  type Move,
  CELL0,
  FOUNDATION,
  MAX_MOVES,
  moveFrom,
  moveTo,
  moveCount,
  moveCard,
  moveToEmpty,
  moveFoundation,
  moveAutoHome,
  autoHomeSuit,
  makeMove,
  generateMoves,
  applyLegalMove as applyMove,
  applyMove as applyMoveUnchecked,
  undoMove,
  isLegal,
  legalMoves,
} from "./moves.js";
export { type Seed, MS_MAX, msDeck, seededDeck, deal, dealMs } from "./deal.js";
export { moveToString, parseMove } from "./notation.js";
export { formatBoard, parseBoard, formatFcsBoard, parseFcsBoard, readBoardFile } from "./board.js";
export { type RenderOptions, renderBoard, renderCard } from "./render.js";

// Types of the carcassonne-rules package: the JSON of `carcassonne-rules
// modules|order|play --format json`, and what `play --save` writes.
// SPDX-License-Identifier: MIT OR Apache-2.0

/** `C1` (1st edition), `C2` (new edition), `WE` (Winter edition). */
export type Edition = "C1" | "C2" | "WE" | (string & {});

/** The publisher's rules: `hig`, `zmg`, `rgg`. */
export type Variant = "hig" | "zmg" | "rgg" | (string & {});

/** What `--edition`, `--variant`, `--with` and `--lang` say on the command line. */
export interface Selection {
  edition: Edition;
  /** Every edition defaults to `hig`. */
  variant?: Variant;
  /** Module and expansion ids (an expansion selects all its modules). */
  with?: string[];
  /** `en` (the default), `nl`, `ru`, … */
  lang?: string;
}

// ---------------------------------------------------------------- modules

/** `modules --format json`. */
export interface ModulesJson {
  expansions: Expansion[];
}

export interface Expansion {
  /** `abbey_and_mayor` */
  id: string;
  /** `Abbey & Mayor` */
  name: string;
  /** The editions it exists in. */
  editions: Edition[];
  modules: ModuleInfo[];
}

export interface ModuleInfo {
  /** `abbey`: the snake_case of the wiki's selector key. */
  id: string;
  name: string;
}

// ---------------------------------------------------------------- order

/** `order --format json`. */
export interface OrderJson {
  edition: Edition;
  variant: Variant;
  /** The selected module ids, sorted. */
  modules: string[];
  /** Only with a `lang` other than `en`. */
  lang?: string;
  /** The introduction's notes that depend on the selection. */
  notes: Item[];
  setup: Item[];
  /** The "at any time during your turn" section. */
  any_time: Item[];
  phases: Phase[];
  final_scoring: Item[];
}

export interface Phase {
  /** `1` … `4` */
  id: string;
  title: string;
  /** The steps that exist for the selection. */
  steps: Step[];
}

export interface Step {
  /** `1A 1B 1C 2A 2B-1 2B-2 2C 2D 3A 3B 3C 3D 4A 4B` */
  id: string;
  title: string;
  repeat: "double_turn" | "per_feature" | null;
  /** The player does exactly one of the items. */
  choose_one: boolean;
  /** The visible items, possibly none. */
  items: Item[];
}

/**
 * What carrying the item out does to the turn: steps skipped, a go-back, the
 * double turn, the rest of a per-feature round dropped (`next_feature`), or
 * items ruled out for the rest of the part or of the whole turn (`forbid`).
 */
export type Effect =
  | { skip: string[] }
  | { go_back: string }
  | { double_turn: true }
  | { next_feature: true }
  | { forbid: string[]; for: "part" | "turn" };

export interface Item {
  /** Unique among the rules' items: `draw-tile`. */
  id: string;
  /** The selected module that brings the item, or `base`. */
  origin: string;
  text: string;
  /** Visible markers, upper case (`ROBBER CHOICE`). */
  markers: string[];
  /** The item comes from another edition than the one selected. */
  foreign: boolean;
  effect: Effect | null;
  children: Item[];
  /** Only in a translated order (`lang` other than `en`). */
  translation?: "translated" | "outdated" | "missing";
}

// ---------------------------------------------------------------- play

/** One answer of the `play` contract, optionally naming the prompt's `seq`. */
export type Answer =
  | { do: boolean; seq?: number }
  | { choose: string | null; seq?: number }
  | { count: number; seq?: number }
  | { any_time: string };

/** `[n, of]`: the completed feature a per-feature step is played for. */
export type Feature = [number, number];

/**
 * Who answers a prompt (who carries the item out): the player whose turn it
 * is (`active`), the player on their left (`left`), every player in turn,
 * the active player first (`each`) or last, from the left (`each_from_left`),
 * the player the feature or figure concerns (`owner`), each player who
 * scores (`scorers`). Where several players act, one prompt stands for all
 * of them.
 */
export type Actor = "active" | "left" | "each" | "each_from_left" | "owner" | "scorers";

interface PromptBase {
  /** Counts the prompts from the start of the turn, across resumes. */
  seq: number;
  /** 1, or 2 in a double turn's second part. */
  part: 1 | 2;
  step: string;
  feature: Feature | null;
  /** The prompt still waits for its answer: the last of `prompts`. */
  pending?: true;
  /** Who answers it: ask that player (or players), not always the active one. */
  actor: Actor;
}

/**
 * Was the item carried out, does its condition hold: `{do: true|false}`.
 * Where `must`, the item cannot be declined: show it as an instruction to
 * acknowledge, and answer `{do: true}` (`{do: false}` is refused with the
 * reason `must`).
 */
export interface DoPrompt extends PromptBase {
  kind: "do";
  item: string;
  must: boolean;
  /**
   * The item repeats until done and its sub-items were played: the prompt
   * asks whether to play them again (`{do: true}`), not the item itself;
   * never a must.
   */
  again?: true;
}

/** One of `options`: `{choose: id}`, or `{choose: null}` where `may_pass`. */
export interface ChoosePrompt extends PromptBase {
  kind: "choose";
  options: string[];
  may_pass: boolean;
  /** The item whose options these are, or null for the step's own choice. */
  of: string | null;
  /**
   * One of the options must be taken: always `!may_pass`. (A choice of one
   * option that must be taken is never asked: the trace says `taken`.)
   */
  must: boolean;
}

/** How many features were completed: `{count: n}`. */
export interface CountPrompt extends PromptBase {
  kind: "count";
}

export type Prompt = DoPrompt | ChoosePrompt | CountPrompt;

/**
 * What happened in the turn, by the rules' ids; `actor` is who answered (or
 * took the only option).
 */
export type TraceEvent =
  | { event: "part"; part: number }
  | { event: "step"; part: number; step: string; feature: Feature | null }
  | { event: "item"; part: number; step: string; item: string; done: boolean; actor: Actor }
  | { event: "chose"; part: number; step: string; item: string | null; actor: Actor }
  /** The only option of a choice that must be made, taken without asking. */
  | { event: "taken"; part: number; step: string; item: string; actor: Actor }
  /**
   * An item left out by what was done before: an item its `none_of` names
   * was done in this pass of the step ("if you did none of the above"), or
   * an effect forbade it.
   */
  | { event: "left_out"; part: number; step: string; item: string }
  | { event: "skipped"; part: number; step: string }
  | { event: "no_features"; part: number; step: string }
  | { event: "once"; part: number; step: string; item: string }
  | { event: "go_back"; part: number; from: string; to: string }
  | { event: "any_time"; part: number; step: string; item: string }
  | { event: "end" };

/**
 * A turn's state: what `play --save` writes, and what `resume` takes. Opaque
 * to an engine (store it as JSON); its `turn` names its selection and is
 * stamped with the rules it was played with.
 */
export interface State {
  turn: {
    rules: string;
    selection: { edition: string; variant: string; modules: string };
    seq: number;
    [key: string]: unknown;
  };
  trace: TraceEvent[];
}

/** `play --format json`, plus `state`. */
export interface PlayResult {
  /** Nothing more is asked. */
  over: boolean;
  /** This call's prompts in order, the pending one last (`pending: true`) unless `over`. */
  prompts: Prompt[];
  /** The whole turn so far. */
  trace: TraceEvent[];
  /** What `play --save` would write: pass it to `resume`. */
  state: State;
}

// ---------------------------------------------------------------- API

/** The rules, loaded: every method is synchronous, and throws a `RulesError` when refused. */
export interface Rules {
  /** `modules --format json` */
  modules(): ModulesJson;
  /** `order --format json` for the selection. */
  order(selection: Selection): OrderJson;
  /** Starts a turn of the selection and answers its prompts with `answers` (default none). */
  play(selection: Selection, answers?: Answer[]): PlayResult;
  /** Goes on from a state (`play`'s or `resume`'s `state`, a `--save` file's object or its text). */
  resume(state: State | string, answers?: Answer[]): PlayResult;
}

/** A refused request. */
export declare class RulesError extends Error {
  name: "RulesError";
  /** The command line's diagnostic code for the same mistake: `answers`, `command-line`, … */
  code: string;
  /** How to put it right, where that can be said. */
  help: string | null;
  /** The refused answer's index in `answers`. */
  answer: number | null;
  /**
   * Why the turn refused it, where it did: a stable code to act on instead
   * of the message (which follows the selection's language).
   */
  reason: RefusalReason | null;
}

/** The turn's codes for a refusal (`TurnError::code` in the Rust runtime). */
export type RefusalReason =
  | "other-rules"
  | "bad-state"
  | "stale"
  | "over"
  | "wrong-kind"
  | "not-offered"
  | "may-not-pass"
  | "must"
  | "too-many-features"
  | "too-many-go-backs"
  | "no-such-step"
  | "not-any-time"
  | "done-once"
  | "not-over"
  | "pending"
  | (string & {});

/** Compiles and instantiates the embedded module, once; later calls give the same rules. */
export declare function load(): Promise<Rules>;

declare const carcassonneRules: { load: typeof load; RulesError: typeof RulesError };
export default carcassonneRules;

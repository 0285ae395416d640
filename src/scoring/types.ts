import type { Dimension, FollowerBand, HookArchetype, MediaKind, Platform } from '../domain/enums.ts';
import type { Concept } from './concepts.ts';
import type { EngineNotice } from './engine-notice.ts';

/**
 * The engine's own types. They mirror the wire shapes of CONTRACT.md section 2 (the zod
 * schemas in src/features/intelligence/ are checked against them), so the engine stays a
 * plain library that REST routes, MCP tools, scripts and benchmarks share.
 */

export type Breakdown = Record<Dimension, number>;

/** A stretch of the submitted text, in UTF-16 code units: `start` inclusive, `end` exclusive. */
export interface Span {
  start: number;
  end: number;
}

export interface Signal {
  dimension: Dimension;
  /** The writer-facing concept it speaks for (concepts.ts); a post gets at most one signal per concept. */
  concept: Concept;
  impact: 'positive' | 'negative';
  /** 1-5: how much this signal matters. */
  weight: number;
  label: string;
  /** One sentence. */
  detail: string;
  /** Stable name of the deterministic rule that fired; absent for judge observations. */
  rule?: string;
  /**
   * Where in the submitted text (`ScoreInput.post` as sent) the signal points: the opening line,
   * the link, the hashtags, the long sentence, the words. Empty when it is about the whole post.
   */
  spans: Span[];
}

export interface ScoreInput {
  post: string;
  platform?: Platform;
  authorName?: string;
  authorHeadline?: string;
  followerBand?: FollowerBand;
  media?: MediaKind;
  hasExternalLink?: boolean;
  hashtagCount?: number;
  /** Sunday = 0. */
  dayOfWeek?: number;
  hourLocal?: number;
  /**
   * The post's length as sent, counted the platform's way, where `post` is its normalised form
   * and normalising changed that count (the service scores and caches the normalised text): the
   * platform counts what is sent, spaces before a line break and around the post included, as
   * the editor's counter does. Absent: `post` is counted.
   */
  sentLength?: number;
}

/** This author's own model's view of a post (src/scoring/personal/apply.ts computes it). */
export interface PersonalScore {
  overall: number;
  basedOn: number;
  expected: { low: number; median: number; high: number };
  note: string;
  signals: Signal[];
}

export interface ScoreResult {
  schema: string;
  overall: number;
  breakdown: Breakdown;
  verdict: string;
  signals: Signal[];
  hookArchetype: HookArchetype;
  hookArchetypeNote: string;
  formatMultiplier: number;
  formatNote: string;
  /** This author's own model's view (src/scoring/personal/), when the account has one. */
  personal?: PersonalScore;
  /** Which engine graded it (the service adds it; the scorer itself does not know). */
  engine?: EngineNotice;
}

export interface RewriteChange {
  dimension: Dimension;
  note: string;
}

export interface RewriteResult {
  /** The post's text; on a thread, its first part. */
  rewrite: string;
  /** The replies that follow the post when it became a thread (on a platform with threads); empty otherwise. */
  thread: string[];
  /** To post as the first comment: the links moved out of the body; null when none moved. */
  firstComment: string | null;
  changes: RewriteChange[];
  before: ScoreResult;
  after: ScoreResult;
  engine?: EngineNotice;
}

/** Brand and voice context as the engines see it (already checked to belong to the caller). */
export interface BrandContext {
  name: string;
  description: string | null;
  audience: string | null;
  themes: string[];
  linkPolicy: string | null;
}

export interface VoiceContext {
  name: string;
  traits: string[];
  doNot: string[];
  exemplars: string[];
}

export interface GenerateInput {
  brief: string;
  platform?: Platform;
  authorName?: string;
  authorHeadline?: string;
  followerBand?: FollowerBand;
  media?: MediaKind;
  archetype?: HookArchetype;
  count?: number;
}

export interface PlanInput {
  brief: string;
  platform?: Platform;
  count?: number;
  authorName?: string;
  authorHeadline?: string;
  followerBand?: FollowerBand;
  cadence?: 'daily' | 'weekdays' | '3x-week';
}

export interface PlanItem {
  slot: number;
  pillar: string;
  hook: string;
  angle: string;
  format: MediaKind;
  archetype: HookArchetype;
}

export interface VoiceProfile {
  traits: string[];
  doNot: string[];
  exemplars: string[];
}

import { z } from 'zod';

/** The contract's enumerations (CONTRACT.md section 2), one definition for every feature. */

/**
 * Every platform: the intelligence endpoints accept each, and each can be connected and
 * published to. Each has a profile (src/platforms/profiles.ts, typed by this list).
 */
export const Platform = z.enum(['platformA', 'platformB']).meta({ id: 'Platform' });
export type Platform = z.output<typeof Platform>;

export const MediaKind = z
  .enum(['none', 'single-image', 'multi-image', 'document', 'video', 'poll', 'link'])
  .meta({ id: 'MediaKind' });
export type MediaKind = z.output<typeof MediaKind>;

export const FollowerBand = z
  .enum(['under-500', '500-2k', '2k-10k', '10k-50k', '50k-plus'])
  .meta({ id: 'FollowerBand' });
export type FollowerBand = z.output<typeof FollowerBand>;

export const Dimension = z
  .enum(['hook', 'algorithmFit', 'specificity', 'structure', 'voice', 'engagement'])
  .meta({ id: 'Dimension' });
export type Dimension = z.output<typeof Dimension>;

/**
 * The writer-facing concepts a score speaks of, at most one signal each (src/scoring/concepts.ts
 * describes them; docs/scoring.md tabulates their rules and features).
 */
export const Concept = z
  .enum([
    'opening',
    'length',
    'layout',
    'sentences',
    'repetition',
    'specifics',
    'voice',
    'story',
    'questions',
    'tags',
    'hashtags',
    'links',
    'format',
    'timing',
    'generic',
    'word_choice',
  ])
  .meta({ id: 'Concept' });
export type Concept = z.output<typeof Concept>;

/**
 * The checks a language model's draft or plan must pass before a writer sees it (issue 34;
 * src/scoring/model/draft-gate.ts): the brief's numbers and names kept, no facts added, no label
 * or instruction of the brief, no AI tell, no blank where the brief gives the fact, every part
 * within the platform's limit, and drafts that differ in structure.
 */
export const DraftCheck = z
  .enum([
    'numbers',
    'names',
    'invented',
    'labels',
    'ai_tells',
    'bait',
    'blanks',
    'length',
    'structure',
    'topics',
  ])
  .meta({ id: 'DraftCheck' });
export type DraftCheck = z.output<typeof DraftCheck>;

export const HookArchetype = z
  .enum(['contrarian', 'statement', 'question', 'pure-number', 'story', 'other'])
  .meta({ id: 'HookArchetype' });
export type HookArchetype = z.output<typeof HookArchetype>;

export const Cadence = z.enum(['daily', 'weekdays', '3x-week']).meta({ id: 'Cadence' });
export type Cadence = z.output<typeof Cadence>;

export const ChannelStatus = z
  .enum(['connected', 'expired', 'revoked', 'error'])
  .meta({ id: 'ChannelStatus' });
export type ChannelStatus = z.output<typeof ChannelStatus>;

export const PostStatus = z
  .enum(['draft', 'scheduled', 'publishing', 'published', 'failed', 'canceled'])
  .meta({ id: 'PostStatus' });
export type PostStatus = z.output<typeof PostStatus>;

export const WebhookEvent = z
  .enum([
    'post.published',
    'post.failed',
    'post.scored',
    'channel.disconnected',
    'post.approval_requested',
    'post.approved',
    'post.changes_requested',
  ])
  .meta({ id: 'WebhookEvent' });
export type WebhookEvent = z.output<typeof WebhookEvent>;
export const WEBHOOK_EVENTS = WebhookEvent.options;

export const DeliveryStatus = z.enum(['pending', 'sending', 'delivered', 'failed', 'dead']);
export type DeliveryStatus = z.output<typeof DeliveryStatus>;

/** Score schema version, reported in every ScoreResult and by /v1/meta. */
export const SCORE_SCHEMA_VERSION = 'score.v2';

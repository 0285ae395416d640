import type { Schemas } from '../../../packages/client/src/index.ts';
import {
  countedLength,
  countingWords,
  overflowIndex,
  type TextCounting,
} from '../../../packages/client/src/text-length.ts';

/**
 * The parts of a post (the post, its thread, its first comment) as the console handles them:
 * each part counted against its platform's limit while typing, the validation issues that
 * belong to it, what the create and update calls carry, and how the published parts read back.
 * Every platform fact (limits, how they are counted, threads) comes from the platform's profile
 * as `GET /v1/meta` publishes it (`PlatformFacts`; hooks.ts usePlatformFacts), and the counting
 * is the API's own code (packages/client/src/text-length.ts), so the counter and the refusal agree.
 */
export type PartKind = 'post' | 'reply' | 'comment';

/** One platform's published profile (GET /v1/meta `platforms[]`). */
export type PlatformFacts = Schemas['MetaResult']['platforms'][number];

/** The facts of one platform among /v1/meta's, or undefined while they load (or for an unknown id). */
export const factsOf = (platforms: readonly PlatformFacts[] | undefined, id: string) =>
  platforms?.find((p) => p.id === id);

/** Where every part is a post of its own, published as a reply to the one before. */
export const hasThreads = (facts: PlatformFacts | undefined) => facts?.threads != null;

/** How many follow-up parts a thread may carry on this platform (0 without threads). */
export const maxThreadParts = (facts: PlatformFacts | undefined) => facts?.threads?.maxFollowUps ?? 0;

/** What the console says where a thread cannot be offered. */
export const noThreads = (facts: PlatformFacts) =>
  `${facts.displayName} has no threads; use a first comment.`;

export interface PartCount {
  length: number;
  max: number;
  /** How far past the limit (0 when it fits). */
  over: number;
  unit: string;
}

/** A part's length the platform's way; null where the platform has no such part (or its facts are not loaded). */
export function countPart(facts: PlatformFacts | undefined, kind: PartKind, text: string): PartCount | null {
  const limit = facts?.parts[kind];
  if (!limit) return null;
  const length = countedLength(limit.counting, text);
  return {
    length,
    max: limit.max,
    over: Math.max(0, length - limit.max),
    unit: countingWords(limit.counting),
  };
}

/** The path the API names a thread part by (`thread[0]` is the second part of the post). */
export const threadPath = (index: number) => `thread[${index}]`;

/** A part's name for people: the post is part 1, `thread[0]` part 2. */
export function partName(path: string): string {
  if (path === 'text') return 'the post';
  if (path === 'firstComment') return 'the first comment';
  if (path === 'thread') return 'the thread';
  const match = /^thread\[(\d+)\]$/.exec(path);
  return match ? `part ${Number(match[1]) + 2}` : path;
}

interface Issue {
  code: string;
  message: string;
  part?: string;
}

/**
 * The issues about one part (`undefined`: the post itself), worded for people: the API's
 * `thread[1]: ` prefix goes (the issue is shown under that part) and paths become part names.
 */
export function issuesOf<T extends Issue>(issues: readonly T[], part: string | undefined): T[] {
  return issues
    .filter((issue) => issue.part === part)
    .map((issue) => {
      const prefix = `${issue.part}: `;
      const message =
        issue.part && issue.message.startsWith(prefix) ? issue.message.slice(prefix.length) : issue.message;
      return { ...issue, message: readablePaths(message) };
    });
}

function readablePaths(message: string): string {
  return message
    .replace(/\bRepeats (text|firstComment|thread\[\d+\])/g, (_, path: string) => `Repeats ${partName(path)}`)
    .replace(/\bthread\[(\d+)\]/g, (path) => partName(path));
}

/**
 * What create and update carry: no thread where the platform has none, no blank first comment.
 * Before the platform's facts load, the thread goes as typed (the API refuses one it cannot take).
 */
export function partsToSend(
  facts: PlatformFacts | undefined,
  thread: readonly string[],
  firstComment: string,
): { thread: string[]; firstComment: string | null } {
  return {
    thread: facts && !hasThreads(facts) ? [] : [...thread],
    firstComment: firstComment.trim() ? firstComment : null,
  };
}

/** A thread as one post: its written parts, a blank line apart. */
export function joinParts(text: string, thread: readonly string[]): string {
  return [text, ...thread]
    .map((p) => p.trim())
    .filter(Boolean)
    .join('\n\n');
}

/** The fields of a post the parts' read-back needs (the generated Post has them all). */
export interface PostParts {
  status: string;
  platform: string;
  text: string;
  thread: string[];
  firstComment: string | null;
  platformPostId: string | null;
  platformPostIds: string[];
  platformUrl: string | null;
  firstCommentId: string | null;
}

export type PartState = 'published' | 'waiting' | 'publishing' | 'not published';

export interface PublishedPart {
  path: string;
  /** "Part 2 of 3", "First comment". */
  label: string;
  text: string;
  id: string | null;
  url: string | null;
  state: PartState;
}

/**
 * A part's address on the platform, from the post's own: the API gives a URL for part 1 only,
 * and where each part is a post of its own (platformB) the others differ only in the id.
 */
export function partUrl(post: PostParts, id: string | null, facts: PlatformFacts | undefined): string | null {
  const { platformUrl, platformPostId } = post;
  if (!id || !platformUrl || !platformPostId || !hasThreads(facts)) return null;
  if (!platformUrl.endsWith(platformPostId)) return null;
  return platformUrl.slice(0, platformUrl.length - platformPostId.length) + encodeURIComponent(id);
}

function stateOf(post: PostParts, id: string | null): PartState {
  if (id) return 'published';
  if (post.status === 'publishing') return 'publishing';
  return post.status === 'failed' || post.status === 'canceled' ? 'not published' : 'waiting';
}

/**
 * Every part of a post with what became of it: the ids the platform gave (`platformPostIds`,
 * in order; a failed thread keeps the parts that went out) and the first comment's.
 */
export function publishedParts(post: PostParts, facts: PlatformFacts | undefined): PublishedPart[] {
  const texts = [post.text, ...post.thread];
  const parts: PublishedPart[] = texts.map((text, i) => {
    const id = post.platformPostIds[i] ?? (i === 0 ? post.platformPostId : null) ?? null;
    return {
      path: i === 0 ? 'text' : threadPath(i - 1),
      label: `Part ${i + 1} of ${texts.length}`,
      text,
      id,
      url: i === 0 ? post.platformUrl : partUrl(post, id, facts),
      state: stateOf(post, id),
    };
  });
  if (post.firstComment !== null) {
    parts.push({
      path: 'firstComment',
      label: 'First comment',
      text: post.firstComment,
      id: post.firstCommentId,
      // platformA's comment lives under the post and has no address of its own.
      url: partUrl(post, post.firstCommentId, facts),
      state: stateOf(post, post.firstCommentId),
    });
  }
  return parts;
}

const COMMENT_STATE: Record<PartState, string> = {
  published: 'published',
  waiting: 'to follow the post',
  publishing: 'being published',
  'not published': 'not published',
};

/** A one-line summary for the posts list: "Thread of 3 parts · first comment published". */
export function partsSummary(post: PostParts): string | null {
  const bits: string[] = [];
  if (post.thread.length > 0) bits.push(`Thread of ${post.thread.length + 1} parts`);
  if (post.firstComment !== null) {
    bits.push(`first comment ${COMMENT_STATE[stateOf(post, post.firstCommentId)]}`);
  }
  if (bits.length === 0) return null;
  const line = bits.join(' · ');
  return line[0]!.toUpperCase() + line.slice(1);
}

/** What the done notice says about a published post and its parts. */
export function publishedSentence(post: Pick<PostParts, 'thread' | 'firstComment'>): string {
  const parts = post.thread.length + 1;
  const comment = post.firstComment !== null;
  if (parts > 1) return `Published: all ${parts} parts${comment ? ' and the first comment' : ''}.`;
  return comment ? 'Published, with its first comment.' : 'Published.';
}

/** The counted length of a part, and whether it fits the limit of part `index` (0: the post). */
function limitOf(facts: PlatformFacts, index: number) {
  const limit = (index === 0 ? facts.parts.post : facts.parts.reply) ?? facts.parts.post;
  return { max: Math.min(limit.max, facts.parts.reply?.max ?? limit.max), counting: limit.counting };
}

/**
 * Pieces of one paragraph that each fit `max`: the paragraph whole when it fits, else its
 * sentences packed together, a sentence too long for one part at its words, a word longer than
 * a part (a very long link) cut where the limit runs out. Each piece is a slice of the paragraph,
 * so joining them gives it back but for the spaces where it was cut.
 */
function piecesOf(paragraph: string, max: number, counting: TextCounting): string[] {
  const fits = (s: string) => countedLength(counting, s.trim()) <= max;
  if (fits(paragraph)) return [paragraph];
  // Each unit keeps the space after it, so packing joins them as written.
  const sentences = paragraph.split(/(?<=[.!?…]["'”’)\]]*\s+)/);
  const units = sentences.flatMap((sentence) => {
    if (fits(sentence)) return [sentence];
    return sentence.split(/(?<=\s)/).flatMap((word) => {
      const cut: string[] = [];
      let rest = word;
      while (!fits(rest)) {
        const at = Math.max(1, overflowIndex(counting, rest, max));
        cut.push(rest.slice(0, at));
        rest = rest.slice(at);
      }
      return rest ? [...cut, rest] : cut;
    });
  });
  return pack(units, max, counting, '');
}

/** Joins consecutive units while the part they make fits `max`; each part trimmed. */
function pack(units: string[], max: number, counting: TextCounting, joiner: string) {
  const out: string[] = [];
  let current = '';
  for (const unit of units) {
    const next = current ? `${current}${joiner}${unit}` : unit;
    if (!current.trim() || countedLength(counting, next.trim()) <= max) current = next;
    else {
      out.push(current.trim());
      current = unit;
    }
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

/** A thread may carry so many parts: what is left over joins the last part (which then shows as too long). */
function capParts(facts: PlatformFacts, parts: string[]): string[] {
  const most = maxThreadParts(facts) + 1;
  if (parts.length <= most) return parts;
  return [...parts.slice(0, most - 1), parts.slice(most - 1).join('\n\n')];
}

const paragraphsOf = (text: string) =>
  text
    .split(/\n[ \t]*\n/)
    .map((p) => p.trim())
    .filter(Boolean);

/**
 * "Split at paragraphs": every paragraph (a blank line ends one) becomes a part of its own, and
 * a paragraph too long for one part is cut at its sentences. Without threads, the text as it is.
 */
export function splitAtParagraphs(facts: PlatformFacts, text: string): string[] {
  if (!hasThreads(facts)) return [text];
  const { max, counting } = limitOf(facts, 0);
  const parts = paragraphsOf(text).flatMap((p) => piecesOf(p, max, counting));
  return capParts(facts, parts.length ? parts : [text]);
}

/**
 * A post written for another platform, as a thread for this one: as one part when it fits,
 * else its paragraphs packed into as few parts as fit (a paragraph too long for one part cut at
 * its sentences). Without threads, the parts joined into one post.
 */
export function threadFrom(facts: PlatformFacts, parts: readonly string[]): string[] {
  const whole = joinParts(parts[0] ?? '', parts.slice(1));
  if (!hasThreads(facts)) return [whole];
  const { max, counting } = limitOf(facts, 0);
  if (countedLength(counting, whole) <= max) return [whole];
  const units = paragraphsOf(whole).flatMap((p) => piecesOf(p, max, counting));
  return capParts(facts, pack(units, max, counting, '\n\n'));
}

/**
 * A post group's error path for people: `variants[1].thread[0]` is "Sandy Sandbox (platformB),
 * part 2" (`labels[i]` names variant i's channel); null for a path that names no variant.
 */
export function variantFieldName(path: string, labels: readonly string[]): string | null {
  const match = /^variants\[(\d+)\]\.(.+)$/.exec(path);
  const label = match ? labels[Number(match[1])] : undefined;
  if (!match || label === undefined) return null;
  const field = match[2]!;
  const what =
    field === 'channelId' ? 'the channel' : field.startsWith('mediaIds') ? 'the media' : partName(field);
  return `${label}, ${what}`;
}

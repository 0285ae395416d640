import { useState } from 'react';
import type { Schemas } from '../api.ts';
import { ErrorBox } from '../components/ErrorBox.tsx';
import { usePlatformFacts } from '../lib/hooks.ts';
import {
  countPart,
  hasThreads,
  issuesOf,
  maxThreadParts,
  noThreads,
  type PartCount,
  type PlatformFacts,
  splitAtParagraphs,
  threadPath,
} from '../lib/parts.ts';

type Report = Schemas['ValidationReport'] | undefined;
type Issue = Schemas['ValidationIssue'];

/** A part's length against its platform's limit, live as you type. */
export function PartCounter({ count }: { count: PartCount | null }) {
  if (!count) return null;
  return (
    <span className={`counter ${count.over > 0 ? 'over' : ''}`}>
      {count.length}/{count.max} {count.unit}
      {count.over > 0 && ` — ${count.over} over`}
    </span>
  );
}

/**
 * A part's issues less the one its counter already says: while the counter shows the part over
 * its limit (in red, by how much), the API's `too_long` error would say the same thing again.
 */
export function beyondCounter<T extends { code: string }>(
  errors: readonly T[],
  count: PartCount | null,
): T[] {
  return count && count.over > 0 ? errors.filter((e) => e.code !== 'too_long') : [...errors];
}

/** A part's counter and its issues, the length said once. */
function CountedIssues({ count, errors }: { count: PartCount | null; errors: Issue[] }) {
  return (
    <>
      <PartCounter count={count} />
      <Issues errors={beyondCounter(errors, count)} />
    </>
  );
}

/** Validation issues of one part. */
export function Issues({ errors, warnings = [] }: { errors: Issue[]; warnings?: Issue[] }) {
  return (
    <>
      {errors.map((e) => (
        <p key={`${e.code}-${e.message}`} className="v-error">
          ✖ {e.message}
        </p>
      ))}
      {warnings.map((w) => (
        <p key={`${w.code}-${w.message}`} className="v-warn">
          ⚠ {w.message}
        </p>
      ))}
    </>
  );
}

/**
 * The concept of the score's signals that each validation warning repeats (concepts.ts): while a
 * score of this very text is shown, its signal says it and the warning does not say it again.
 */
const WARNING_CONCEPT: Record<string, string> = {
  engagement_bait: 'generic',
  ai_tells: 'generic',
  too_many_hashtags: 'hashtags',
  external_link: 'links',
};

/**
 * What the writer can do with this post once it passes: `publish` it (or schedule it), `submit`
 * it for review (an editor whose posts wait for an approver), or nothing more while it is
 * `pending`, already waiting for one.
 */
export type NextStep = 'publish' | 'submit' | 'pending';

/** The line a valid post shows, and the one a post whose part needs fixing shows, for each next step. */
const STEP_WORDS: Record<NextStep, { ready: string; fixFirst: string }> = {
  publish: {
    ready: 'Ready to publish',
    fixFirst: 'A part below needs fixing before this can be published.',
  },
  submit: {
    ready: 'Ready to submit for review',
    fixFirst: 'A part below needs fixing before this can be submitted for review.',
  },
  pending: {
    ready: 'Ready for review',
    fixFirst: 'A part below needs fixing before this can be published.',
  },
};

/** The post's own counter and issues (the parts' issues show under each part). */
export function PostValidation({
  platform,
  text,
  report,
  error,
  said = [],
  next,
}: {
  platform: string;
  text: string;
  report: Report;
  error: unknown;
  /** The concepts the score shown for this text already speaks for. */
  said?: readonly string[];
  next: NextStep;
}) {
  const words = STEP_WORDS[next];
  const own = issuesOf(report?.errors ?? [], undefined);
  const warnings = (report?.warnings ?? []).filter((w) => !said.includes(WARNING_CONCEPT[w.code] ?? ''));
  const facts = usePlatformFacts(platform);
  const counter = text ? countPart(facts, 'post', text) : null;
  return (
    <div id="validation" className="validation" aria-live="polite">
      <PartCounter count={counter} />
      {report && (
        <>
          <span className="muted">
            {' '}
            · {count(report.stats.lines, 'line')} · {count(report.stats.hashtags, 'hashtag')} ·{' '}
            {count(report.stats.links, 'link')}
          </span>
          <Issues errors={beyondCounter(own, counter)} warnings={warnings} />
          {report.valid && report.warnings.length === 0 && <p className="v-ok">✔ {words.ready}</p>}
          {!report.valid && own.length === 0 && <p className="v-error">✖ {words.fixFirst}</p>}
        </>
      )}
      <ErrorBox error={error} />
    </div>
  );
}

/**
 * The thread's follow-up parts (platformB), each with its counter and its own issues from the
 * live validation. On a platform without threads, the reason instead, and nothing is sent.
 */
export function ThreadEditor({
  platform,
  thread,
  onChange,
  onJoin,
  report,
}: {
  platform: string;
  thread: string[];
  /** The new parts; `focus` is the index of the part to put the cursor in (a split's second half). */
  onChange: (thread: string[], focus?: number) => void;
  /** Joins the parts into the post itself (one post, paragraphs apart). */
  onJoin: () => void;
  report: Report;
}) {
  const errors = report?.errors ?? [];
  const facts = usePlatformFacts(platform);
  // The platform's facts load with /v1/meta; until then nothing is offered or refused.
  if (!facts) return null;
  const reply = facts.threads && facts.parts.reply;
  if (!reply) return <ThreadOff facts={facts} thread={thread} onJoin={onJoin} />;
  const set = (index: number, value: string) => onChange(thread.map((p, i) => (i === index ? value : p)));
  const room = maxThreadParts(facts) - thread.length;
  // Part `index` becomes `parts` (a split at the cursor or at its paragraphs).
  const splitPart = (index: number, parts: string[]) =>
    onChange([...thread.slice(0, index), ...parts, ...thread.slice(index + 1)], index + 1);
  return (
    <fieldset className="thread">
      <legend>Thread</legend>
      <p className="hint">
        Each part is published as a reply to the part before it: up to {maxThreadParts(facts)} follow-up
        parts, each up to {reply.max} {reply.counted}. A blank line marks where a part ends (Split at
        paragraphs makes the parts), and Ctrl+Enter (⌘+Enter on a Mac) splits a part at the cursor.
      </p>
      <ol className="thread-parts">
        {thread.map((part, i) => (
          <li key={i}>
            <label htmlFor={`thread-${i}`}>Part {i + 2}</label>
            <textarea
              id={`thread-${i}`}
              rows={3}
              value={part}
              onChange={(e) => set(i, e.target.value)}
              onKeyDown={(e) => {
                const halves = room > 0 ? splitAtCursor(e) : null;
                if (halves) splitPart(i, halves);
              }}
              aria-describedby={`thread-${i}-check`}
            />
            <div id={`thread-${i}-check`} className="validation" aria-live="polite">
              <CountedIssues
                count={countPart(facts, 'reply', part)}
                errors={issuesOf(errors, threadPath(i))}
              />
            </div>
            <SplitOffer facts={facts} text={part} room={room} onSplit={(parts) => splitPart(i, parts)} />
            <button type="button" onClick={() => onChange(thread.filter((_, j) => j !== i))}>
              Remove part {i + 2}
            </button>
          </li>
        ))}
      </ol>
      <Issues errors={issuesOf(errors, 'thread')} />
      <button
        type="button"
        onClick={() => onChange([...thread, ''])}
        disabled={thread.length >= maxThreadParts(facts)}
      >
        Add a part
      </button>
      {thread.length >= maxThreadParts(facts) && (
        <p className="hint">A thread has at most {maxThreadParts(facts)} follow-up parts.</p>
      )}
    </fieldset>
  );
}

/**
 * Ctrl+Enter (⌘+Enter) in a part: the text before the cursor and the text after it, as two
 * parts; null for any other key (the key then does what it always does).
 */
export function splitAtCursor(e: React.KeyboardEvent<HTMLTextAreaElement>): [string, string] | null {
  if (e.key !== 'Enter' || !(e.ctrlKey || e.metaKey)) return null;
  e.preventDefault();
  const { value, selectionStart, selectionEnd } = e.currentTarget;
  return [value.slice(0, selectionStart).trimEnd(), value.slice(selectionEnd).trimStart()];
}

/** "212", "212 and 140", "212, 140 and 98". */
const listOf = (items: string[]) =>
  items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

/**
 * On a platform with threads, under a part with more than one paragraph or too long for one
 * part: the parts "Split at paragraphs" would make, each with its count, and the button.
 */
export function SplitOffer({
  facts,
  text,
  room,
  onSplit,
}: {
  facts: PlatformFacts | undefined;
  text: string;
  /** How many more parts the thread can take. */
  room: number;
  onSplit: (parts: string[]) => void;
}) {
  if (!facts || !hasThreads(facts) || !text.trim()) return null;
  const parts = splitAtParagraphs(facts, text);
  if (parts.length < 2) return null;
  const over = (countPart(facts, 'reply', text)?.over ?? 0) > 0;
  const counts = parts.map((p) => countPart(facts, 'reply', p)!);
  const max = counts[0]!.max;
  const fits = parts.length - 1 <= room;
  return (
    <p className="hint split-offer">
      {over ? 'Too long for one part. ' : ''}Split at paragraphs would make {parts.length} parts:{' '}
      {listOf(counts.map((c) => String(c.length)))} of {max} characters.{' '}
      {fits ? (
        <button type="button" onClick={() => onSplit(parts)}>
          Split at paragraphs
        </button>
      ) : room <= 0 ? (
        'The thread is full: no more parts fit.'
      ) : (
        `The thread has room for ${room === 1 ? 'one more part' : `${room} more parts`} only.`
      )}
    </p>
  );
}

/**
 * A platform without threads: parts written for one (a platformB thread, before the channel
 * changed) are offered as one post or kept in parts, each in one click. Kept parts stay in the
 * editor, unsent, and go out again if the post moves back to a platform with threads.
 */
function ThreadOff({
  facts,
  thread,
  onJoin,
}: {
  facts: PlatformFacts;
  thread: string[];
  onJoin: () => void;
}) {
  const [kept, setKept] = useState(false);
  const written = thread.filter((p) => p.trim()).length;
  const parts = written === 1 ? 'The thread part' : `The ${written} thread parts`;
  return (
    <fieldset className="thread off">
      <legend>Thread</legend>
      <p className="hint">{noThreads(facts)}</p>
      {written > 0 &&
        (kept ? (
          <p className="hint">
            {parts} already written {written === 1 ? 'is' : 'are'} kept here but not sent to{' '}
            {facts.displayName}.{' '}
            <button type="button" className="link" onClick={onJoin}>
              Join into one post
            </button>
          </p>
        ) : (
          <div className="notice info">
            <p>
              {parts} written for a thread cannot go to {facts.displayName} as they are. Post everything as
              one post, or keep the parts for a platform with threads (only the first part is sent here).
            </p>
            <div className="row wrap">
              <button type="button" className="primary" onClick={onJoin}>
                Join into one post
              </button>
              <button type="button" onClick={() => setKept(true)}>
                Keep the parts
              </button>
            </div>
          </div>
        ))}
    </fieldset>
  );
}

/** The first comment: under the post on platformA, a reply to the last part on platformB. */
export function FirstCommentField({
  platform,
  value,
  onChange,
  report,
}: {
  platform: string;
  value: string;
  onChange: (value: string) => void;
  report: Report;
}) {
  const facts = usePlatformFacts(platform);
  return (
    <div className="first-comment">
      <label htmlFor="first-comment">First comment</label>
      <textarea
        id="first-comment"
        rows={2}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby="first-comment-check"
        placeholder="Optional: leave empty for none."
      />
      <div id="first-comment-check" className="validation" aria-live="polite">
        <span className="hint">
          {hasThreads(facts)
            ? 'Published right after the post, as a reply to its last part.'
            : 'Published right after the post, as a comment under it: a good place for a link.'}{' '}
        </span>
        <CountedIssues
          count={value.trim() ? countPart(facts, 'comment', value) : null}
          errors={issuesOf(report?.errors ?? [], 'firstComment')}
        />
      </div>
    </div>
  );
}

/** "1 line", "3 lines", "0 links". */
function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

import { DraftCheck, type Platform } from '../../domain/enums.ts';
import { hasThreads, MAX_THREAD_PARTS, textLimitFor } from '../../platforms/profiles.ts';
import { rubricFor } from '../rules/rubrics.ts';
import { inventedFacts } from '../text/facts.ts';
import { machineTells } from '../text/machine-tells.ts';
import { extractFeatures } from '../text/text-features.ts';
import {
  blanksWhereGiven,
  numbersMissing,
  pastedFromBrief,
  sameShape,
  specificsOf,
} from '../writers/draft-checks.ts';
import { fitsPart, splitThread, threadOfParagraphs } from '../writers/rewrite-thread.ts';

/**
 * The gate a language model's draft passes before a writer sees it (issue 34): the checks the
 * offline drafts are held to (writers/draft-checks.ts), made strict where a model can afford it
 * (every number and every name of the brief, not most), plus the AI tells and the engagement bait
 * validate warns about and the platform's limit on every part. Each failure is said twice: to the model, for its one
 * retry, and to the writer, in plain words, when the offline engine stands in for the draft.
 */

export interface DraftFailure {
  check: DraftCheck;
  /** For the model's retry: what is wrong and what to do. */
  problem: string;
  /** For a writer, after "the language model's draft": what it did, in plain words. */
  plain: string;
}

export interface DraftGate {
  brief: string;
  /** Everything the drafts may take facts from: the brief, the author, the brand and voice. */
  source: string;
  platform: Platform;
}

const lower = (s: string) => s.toLowerCase().replace(/[’]/g, "'");
/** Whether `word` stands in `text` as a word of its own ("St" is not in "first"). */
function hasWord(text: string, word: string): boolean {
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    const before = text[at - 1] ?? ' ';
    const after = text[at + word.length] ?? ' ';
    if (!/[\p{L}\p{N}]/u.test(before) && !/[\p{L}\p{N}]/u.test(after)) return true;
  }
  return false;
}

const listed = (xs: string[]) => xs.slice(0, 6).join(', ');

/** The tells of `draft` that its brief does not have itself (the writer's own words are theirs). */
function tellsAdded(brief: string, draft: string): string[] {
  const own = new Set(machineTells(extractFeatures(brief)));
  return machineTells(extractFeatures(draft)).filter((t) => !own.has(t));
}

/**
 * The engagement bait of `draft` its brief does not have ("Comment YES below"): validate warns of
 * it and the feed demotes it, as the offline drafts, which leave the brief's own bait out, know.
 */
function baitAdded(brief: string, draft: string): string[] {
  const own = new Set(extractFeatures(brief).phrases.bait.map(lower));
  return [...new Set(extractFeatures(draft).phrases.bait.map(lower))].filter((p) => !own.has(p));
}

/** How `draft` breaks the platform's limit, or null when every part it is published as fits. */
function overLimit(platform: Platform, draft: string): { problem: string; plain: string } | null {
  const { maxLength } = rubricFor(platform);
  const post = textLimitFor(platform, 'post');
  const max = post?.max ?? maxLength;
  const length = post ? post.length(draft) : draft.length;
  if (length <= max && draft.length <= maxLength) return null;
  if (!hasThreads(platform))
    return {
      problem: `it is ${length} characters; ${platform}'s limit is ${max} and it has no threads: shorten it`,
      plain: `ran over ${platform}'s limit of ${max.toLocaleString('en-US')} characters`,
    };
  const thread = splitThread(platform, draft, maxLength);
  const parts = threadOfParagraphs(platform, draft, maxLength);
  const most = MAX_THREAD_PARTS + 1;
  if (thread.overflow.length || thread.droppedTags || parts.length > most)
    return {
      problem: `it needs more than ${most} parts of ${max} characters; ${platform} threads hold ${most}: shorten it`,
      plain: `was too long for a ${platform} thread of ${most} parts`,
    };
  const wide = parts.find((p) => !fitsPart(platform, p, maxLength));
  return wide
    ? {
        problem: `a part of it is ${wide.length} characters; each part must be at most ${max}`,
        plain: `had a part over ${platform}'s limit of ${max.toLocaleString('en-US')} characters`,
      }
    : null;
}

const EVERY_CHECK: ReadonlySet<DraftCheck> = new Set(DraftCheck.options);

/**
 * Every check one draft fails, in the order a writer would care about them; `only` limits the
 * checks, and `notFigures` are numbers of the brief that are no fact to keep (a plan's requested
 * count: "a 5-post series").
 */
export function draftFailures(
  gate: DraftGate,
  draft: string,
  only: ReadonlySet<DraftCheck> = EVERY_CHECK,
  notFigures: readonly string[] = [],
): DraftFailure[] {
  const { brief } = gate;
  const out: DraftFailure[] = [];
  const pasted = only.has('labels') ? pastedFromBrief(brief, draft) : null;
  if (pasted)
    out.push({
      check: 'labels',
      problem: `it repeats the brief's label or instruction "${pasted}": write the post itself`,
      plain: `repeated the brief's label or instruction "${pasted}"`,
    });
  const numbers = only.has('numbers')
    ? numbersMissing(brief, draft).filter((n) => !notFigures.includes(n))
    : [];
  if (numbers.length)
    out.push({
      check: 'numbers',
      problem: `it drops the brief's figures ${listed(numbers)}: keep every one`,
      plain: `left out ${numbers.length === 1 ? 'a number' : 'numbers'} the brief gives (${listed(numbers)})`,
    });
  const text = lower(draft);
  const names = only.has('names')
    ? specificsOf(brief).filter((s) => !/^\d/.test(s) && !hasWord(text, lower(s)))
    : [];
  if (names.length)
    out.push({
      check: 'names',
      problem: `it drops the brief's names ${listed(names)}: keep every one as written`,
      plain: `left out ${names.some((n) => /^https?:/i.test(n)) ? 'names or links' : names.length === 1 ? 'a name' : 'names'} the brief gives (${listed(names)})`,
    });
  const invented = only.has('invented') ? inventedFacts(gate.source, draft, { names: false }) : [];
  if (invented.length)
    out.push({
      check: 'invented',
      problem: `it adds numbers or links the brief does not give: ${listed(invented)}; use only the brief's facts`,
      plain: `added ${invented.length === 1 ? 'a number or link' : 'numbers or links'} the brief does not give (${listed(invented)})`,
    });
  const tells = only.has('ai_tells') ? tellsAdded(brief, draft) : [];
  if (tells.length)
    out.push({
      check: 'ai_tells',
      problem: `it reads as machine-written (${listed(tells)}): say it plainly, in the writer's words`,
      plain: `used wording that reads as machine-written (${listed(tells)})`,
    });
  const bait = only.has('bait') ? baitAdded(brief, draft) : [];
  if (bait.length)
    out.push({
      check: 'bait',
      problem: `it asks for engagement as such (${listed(bait.map((b) => `"${b}"`))}), which the feed demotes: cut it, or ask one real question about the post's topic`,
      plain: `added engagement bait the feed demotes (${listed(bait.map((b) => `"${b}"`))})`,
    });
  const blanks = only.has('blanks') ? blanksWhereGiven(brief, draft) : [];
  if (blanks.length)
    out.push({
      check: 'blanks',
      problem: `it leaves ${listed(blanks)} where the brief gives the fact: use the brief's own words`,
      plain: `left a blank (${listed(blanks)}) where the brief gives the fact`,
    });
  const limit = only.has('length') ? overLimit(gate.platform, draft) : null;
  if (limit) out.push({ check: 'length', ...limit });
  return out;
}

/**
 * The failures of a set of drafts, by position: each draft's own, and a draft with the
 * structure of one before it (the brief told the same way twice) fails `structure`.
 */
export function draftSetFailures(gate: DraftGate, drafts: string[]): DraftFailure[][] {
  return drafts.map((d, i) => {
    const own = draftFailures(gate, d);
    if (own.length) return own;
    const twin = drafts.slice(0, i).findIndex((e) => sameShape(gate.brief, e, d));
    return twin < 0
      ? []
      : [
          {
            check: 'structure' as const,
            problem: `it has the structure of draft ${twin + 1}: give it its own (the result first, the story in order, a list)`,
            plain: 'told the brief the same way as another draft',
          },
        ];
  });
}

/** The problems of a set of drafts for the model's retry, by draft number; null when all pass. */
export function retryProblem(failures: DraftFailure[][]): string | null {
  const lines = failures.flatMap((f, i) =>
    f.length ? [`draft ${i + 1}: ${f.map((x) => x.problem).join('; ')}`] : [],
  );
  return lines.length ? lines.join('\n') : null;
}

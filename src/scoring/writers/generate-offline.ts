import type { HookArchetype } from '../../domain/enums.ts';
import { detectArchetype } from '../rules/hook.ts';
import { isDescription } from '../text/noun-phrases.ts';
import { hasPhrase } from '../text/phrases.ts';
import { splitSentences } from '../text/rewrite-sentences.ts';
import { normalizePost } from '../text/text-features.ts';
import {
  adviceAbout,
  agree,
  capitalised,
  impersonal,
  isNounPhrases,
  labelTheme,
  type Theme,
  themesOf,
} from '../text/themes.ts';
import type { BrandContext, GenerateInput, VoiceContext } from '../types.ts';
import { cleanBrief } from './brief-clean.ts';
import { specificsOf } from './draft-checks.ts';
import { detailsFor } from './draft-select.ts';
import { opensWithNews } from './news-wording.ts';
import { voiceHints } from './voice-offline.ts';

/**
 * Offline generation: templates filled only with the brief, the brand and the voice's
 * habits. A template adds framing ("My notes on ..."), never a number, name or claim that is
 * not in the brief or the brand, so the output can be trusted as a draft. Every candidate
 * carries the brief's own sentences (on a long brief, the share draft-select.ts picks, which keeps
 * its numbers and names), and names the brief's main
 * theme as the brief did ("our cloud bill", "sourdough classes", themes.ts).
 */

export interface GenerateContext {
  brand: BrandContext | null;
  voice: VoiceContext | null;
}

/** Archetype preference when the caller does not ask for one: best calibration medians first. */
const ORDER: HookArchetype[] = ['story', 'statement', 'contrarian', 'pure-number', 'question'];

/** Lower-cased words only, space-joined and padded, to find one sentence inside another. */
const squashed = (s: string) =>
  ` ${s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}%$]+/gu, ' ')
    .trim()} `;
const stripEnd = (s: string) => s.replace(/[.!?…:;,]+$/u, '').trim();
/** Lower-cases the first letter unless the first word looks like a name or an acronym. */
const lowerFirst = (s: string) =>
  /^\p{Lu}[\p{Ll}\s]/u.test(s) && !/^I\b/.test(s) ? s[0]!.toLowerCase() + s.slice(1) : s;
const upperFirst = (s: string) => (s ? s[0]!.toUpperCase() + s.slice(1) : s);
/** A story hook can carry the first sentence whole while it stays before the fold. */
const HOOK_MAX_CHARS = 150;
const LABEL_MAX_WORDS = 6;

function hashtag(theme: string): string | null {
  const words = theme.match(/[\p{L}\p{N}]+/gu) ?? [];
  if (!words.length) return null;
  return `#${words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('')}`;
}

interface Parts {
  /** The brief's first sentence, end punctuation stripped. */
  topic: string;
  /** How the topic reads: a question-word clause, a bare noun phrase, or a full sentence. */
  kind: 'clause' | 'phrase' | 'sentence';
  /** True when the topic is told in the first person ("We cut ...", "I ran ..."). */
  firstPerson: boolean;
  /** The main theme, named as the brief names it ("our cloud bill", "late payments"). */
  theme: Theme;
  details: string[];
  /**
   * The archetype the brief's own first sentence already opens with, when it is short enough
   * to be the hook (null otherwise): that sentence then opens the post, with no template line
   * before it that would say the same thing twice.
   */
  opens: HookArchetype | null;
  /** That first sentence as written, end punctuation kept. */
  opening: string;
  /** The first sentence introduces the rest as a list ("Five lessons from ...:"). */
  heading: boolean;
  /** How the first sentence ends ("?" for a question, "" when its closing quote ends it, else "."). */
  end: string;
  /** Whether this candidate says the topic sentence (a tighter take may leave it out). */
  showTopic: boolean;
  /**
   * The brief opens with news, thanks or congratulations ("Thrilled to share ...",
   * "Congratulations to ..."): it is told, never argued, and asks the reader nothing.
   */
  news: boolean;
}

/**
 * The brief's sentences as a post says them: clauses joined by a semicolon become sentences,
 * and a description with no main verb ("A small bakery in Lisbon that teaches ...") is said
 * as one ("We are a small bakery ..." when the brief speaks as "we", else "Meet a ...").
 */
function sentencesOf(brief: string): string[] {
  const we = /\b(?:we|our|us)\b/i.test(brief);
  return (
    normalizePost(brief)
      .split(/\n+/)
      .flatMap((line) => splitSentences(line))
      .flatMap((s) => s.split(/;\s+/).map((c, i, all) => (i < all.length - 1 ? `${stripEnd(c)}.` : c)))
      .map((s) => upperFirst(s.trim()))
      // A greeting ("Hello everyone!") is no content, and as a theme it would open with a stock line.
      .filter(
        (s, _i, all) => all.length === 1 || s.split(/\s+/).length > 4 || !hasPhrase('genericOpeners', s),
      )
      .map((s) => (isDescription(s) ? `${we ? 'We are' : 'Meet'} ${lowerFirst(s)}` : s))
  );
}

function partsOf(brief: string, brand: BrandContext | null): Parts {
  const sentences = sentencesOf(brief);
  const topic = stripEnd(sentences[0] ?? brief);
  // A label reads as a topic ("Q3 content push"); a long one reads better said as it was written.
  // "When we launched, nobody came" is a whole sentence: its main clause follows the comma.
  const kind =
    /^(?:why|how|what|when|where|who)\b/i.test(topic) && !/^(?:when|where|while)\b[^,]*,\s*\S/i.test(topic)
      ? 'clause'
      : topic.split(/\s+/).length <= LABEL_MAX_WORDS && isNounPhrases(topic)
        ? 'phrase'
        : 'sentence';
  // A first line that already says a later sentence (a plan item's hook put before the plan's
  // brief: "I still think about how we moved ..." then "We moved ...") is not said twice.
  const firstSays = squashed(sentences[0] ?? '');
  const details = sentences.slice(1).filter((s) => !firstSays.includes(squashed(s)));
  if (brand?.description) details.push(brand.description.trim().replace(/([^.!?])$/u, '$1.'));
  const said = (sentences[0] ?? brief).trim();
  const opening = /[.!?…]["'’”)]*$/u.test(said) ? said : `${said}.`;
  // A list of topics ("pricing, hiring and culture") is the theme as a whole, as written.
  const listed = /,| and /.test(topic);
  const label = labelTheme(topic);
  // "Thrilled to share", "Congratulations to" give news; "My first marathon" tells a story.
  const news = opensWithNews(sentences.join('\n'));
  // "Congrats Eagles fans" is news, not a label: its theme is a noun phrase of it ("Eagles fans").
  const theme =
    kind === 'phrase' && !news
      ? { ...label, plural: listed || label.plural }
      : ((news ? themesOf(brief).find((t) => !hasPhrase('personalNews', t.text)) : themesOf(brief, 1)[0]) ??
        label);
  // "We cut ..." tells what happened; "We are a bakery ..." only says who is speaking.
  const firstPerson =
    kind === 'sentence' &&
    /^(?:I|We)\b/.test(topic) &&
    !/^(?:I am|I'm|We are|We're) an?\b/i.test(topic) &&
    !/[:;]/.test(topic);
  const opens = kind !== 'phrase' && opening.length <= HOOK_MAX_CHARS ? detectArchetype(opening) : null;
  const heading = /:$/.test(sentences[0] ?? '') && details.length >= 2;
  // A sentence that already ends inside its closing quote ("... over again.”") takes no more.
  const first = (sentences[0] ?? '').trim();
  const end = /[.!?…]["'’”)]+$/u.test(first) ? '' : (/[?!]$/.exec(first)?.[0] ?? '.');
  return { topic, kind, firstPerson, theme, details, opens, opening, heading, end, showTopic: true, news };
}

const ORDINALS = [
  'First',
  'Second',
  'Third',
  'Fourth',
  'Fifth',
  'Sixth',
  'Seventh',
  'Eighth',
  'Ninth',
  'Tenth',
];
const NUMBER_WORDS = ['', 'One', 'Two', 'Three', 'Four', 'Five', 'Six', 'Seven', 'Eight', 'Nine', 'Ten'];

/**
 * Each archetype has its own shape, so candidates differ in more than their first line: a story
 * in paragraphs, a claim over a bullet list, a contrarian take that argues, a numbered list, and
 * a question answered first. Numbers are written as words: a template adds no digit.
 */
function blocksFor(archetype: HookArchetype, p: Parts, paragraphs: (lines: string[]) => string[]): string[] {
  const t = p.theme.phrase;
  const T = capitalised(t);
  const Topic = upperFirst(p.topic);
  // A heading introduces what follows ("Five lessons from ...:"); a topic sentence ends as one.
  const topicLine = p.heading ? `${Topic}:` : `${Topic}${p.end}`;
  // A tighter take may leave the topic sentence to the others (draft-select.ts).
  const topicLines = p.kind === 'phrase' || !p.showTopic ? [] : [topicLine];
  const body = p.kind === 'sentence' ? [...topicLines, ...p.details] : p.details;
  const bullets = (lines: string[]) => lines.map((d) => `- ${stripEnd(d)}`).join('\n');
  // A theme whose article the tagger cannot tell ("product launch": "the" or none?) is named
  // after a colon, where no article is needed; `named(withTheme, afterColon)` picks the line.
  const unsure = p.theme.articleUnknown;
  const named = (withTheme: string, afterColon: string) => (unsure ? afterColon : withTheme);
  // "My first marathon deserves a closer look" reads as a story: then the claim is said another way.
  const closerLook = (x: string) =>
    named(
      `${capitalised(x)} ${agree(p.theme, 'deserves', 'deserve')} a closer look.`,
      `One topic deserves a closer look: ${x}.`,
    );
  const claims = [
    closerLook(t),
    ...(unsure ? [] : [`Here is what ${t} ${agree(p.theme, 'looks', 'look')} like up close.`]),
    closerLook(impersonal(p.theme).phrase),
  ];
  const claim = claims.find((h) => detectArchetype(h) === 'statement') ?? claims[0]!;
  switch (archetype) {
    case 'story': {
      // First person, so the hook reads (and is detected) as a story; it tells the first
      // sentence itself when that is the author's own and short enough.
      // News opens with itself, however long: "I keep coming back to Race Capital." would hide it.
      const own = p.opens === 'story' || p.news;
      const told = own || ((p.kind === 'clause' || p.firstPerson) && p.topic.length <= HOOK_MAX_CHARS);
      const hook = own
        ? p.opening
        : told
          ? `My notes on ${p.kind === 'clause' ? '' : 'how '}${lowerFirst(p.topic)}.`
          : p.kind === 'phrase'
            ? named(
                `I have been thinking about ${t} a lot lately.`,
                `I have been thinking a lot lately about one topic: ${t}.`,
              )
            : named(`I keep coming back to ${t}.`, `I keep coming back to one topic: ${t}.`);
      const rest = told ? p.details : body;
      // News asks nothing: "What would you do differently?" under a new job is nothing to answer.
      if (p.news) return [hook, ...paragraphs(rest), 'What it means to me: [one line].'];
      return [
        hook,
        ...(rest.length
          ? paragraphs(rest)
          : [
              '[What happened next, in one or two sentences.]',
              'The lesson I took from it: [one line a reader can use].',
            ]),
        'What would you do differently?',
      ];
    }
    case 'statement':
      // News is said plainly, with why it matters; a list under it would ask which to "start with".
      if (p.news)
        return [
          named(`Here is some news about ${t}.`, `Here is some news about one topic: ${t}.`),
          ...paragraphs([p.opening, ...p.details]),
          'Why it matters: [the reason, in one line].',
        ];
      return [
        ...(p.kind === 'phrase'
          ? [`${T}: it comes down to a few questions.`]
          : !p.heading &&
              p.showTopic &&
              (p.opens === 'statement' || (p.kind === 'clause' && detectArchetype(Topic) === 'statement'))
            ? [topicLine]
            : [claim, ...topicLines]),
        // Under a heading the items are told in order here ("First, keep ..."): the number-led
        // candidate bullets them. Ordinals are words, so the template adds no digit.
        ...(p.details.length >= 2
          ? p.heading && p.details.length <= ORDINALS.length
            ? [p.details.map((d, i) => `${ORDINALS[i]}, ${lowerFirst(stripEnd(d))}.`).join('\n')]
            : [...(p.heading ? [] : ['What that looks like in practice:']), bullets(p.details)]
          : [
              ...p.details,
              'Why it matters: [the reason, in one line].',
              'What I would do first: [the first step].',
            ]),
        p.details.length >= 2 ? 'Which of these would you start with?' : 'What would you add?',
      ];
    case 'contrarian':
      return [
        ...(p.opens === 'contrarian'
          ? [p.opening]
          : [
              named(
                `Most ${adviceAbout(p.theme)} gets the order wrong.`,
                `${T}: most advice about it gets the order wrong.`,
              ),
              ...topicLines,
            ]),
        ...(p.details.length
          ? paragraphs(p.details)
          : [
              'The usual advice says [what people usually say].',
              'What worked for us instead: [what you did].',
            ]),
        'Where do you disagree?',
      ];
    case 'pure-number':
      return [
        ...(p.heading
          ? [topicLine]
          : [
              named(
                `${NUMBER_WORDS[Math.min(p.details.length, 10)]} things ${t} showed me:`,
                `${T}: ${NUMBER_WORDS[Math.min(p.details.length, 10)]!.toLowerCase()} things it showed me.`,
              ),
              ...topicLines,
            ]),
        bullets(p.details.slice(0, 10)),
        'Which one surprised you?',
      ];
    case 'question':
      if (p.opens === 'question')
        return [
          p.opening,
          ...(p.details.length
            ? ['Here is how it went for us.', ...paragraphs(p.details)]
            : ['I am still working out my own answer.']),
          'What has worked for you?',
        ];
      return [
        named(`How do you handle ${p.theme.reader}?`, `${T}: how do you handle it?`),
        ...(body.length
          ? ['Here is how it went for us.', ...paragraphs(body)]
          : ['I am still working out my own answer.']),
        'What has worked for you?',
      ];
    default:
      return [`${Topic}.`, ...paragraphs(p.details)];
  }
}

/** Builds up to `count` distinct drafts (1-3); the caller scores and sorts them. */
export function generateOffline(input: GenerateInput, { brand, voice }: GenerateContext): string[] {
  const count = Math.min(3, Math.max(1, input.count ?? 1));
  const hints = voiceHints(voice);
  const clean = cleanBrief(input.brief);
  if (clean.topic !== null) return scaffolds(clean.topic, input.archetype).slice(0, count);
  const parts = partsOf(clean.text, brand);
  const paragraphs = (lines: string[]) => {
    if (hints.shortSentences || hints.oneIdeaPerLine) return lines;
    const out: string[] = [];
    for (let i = 0; i < lines.length; i += 2) out.push(lines.slice(i, i + 2).join(' '));
    return out;
  };
  // A brief that is a list under a heading is best said as that list.
  const order: HookArchetype[] = parts.heading ? ['pure-number', ...ORDER] : ORDER;
  // News is told (its own opening) or said plainly ("Here is some news about ..."), never argued:
  // "Most advice about Stripe gets the order wrong" fits no announcement, so news gets two drafts.
  const archetypes =
    parts.news && !input.archetype
      ? (['story', 'statement'] as const).slice(0, count)
      : [...new Set([...(input.archetype ? [input.archetype] : []), ...order])]
          .filter((a) => a !== 'pure-number' || parts.details.length >= 2)
          .slice(0, count);
  const tags = hints.noHashtags
    ? []
    : (brand?.themes ?? [])
        .map(hashtag)
        .filter((t): t is string => t !== null)
        .slice(0, 3);

  const specifics = specificsOf(input.brief);
  return archetypes.map((archetype, k) => {
    // The first candidate tells the whole brief, the others its facts and a share of the rest
    // (draft-select.ts); a list under a heading keeps every item in each.
    const told = parts.heading
      ? parts
      : { ...parts, ...detailsFor(parts.details, specifics, k, parts.topic) };
    const blocks = blocksFor(archetype, told, paragraphs);
    const closing = blocks.pop()!;
    if (brand?.audience)
      blocks.push(`If you work with ${lowerFirst(stripEnd(brand.audience))}, this one is for you.`);
    blocks.push(closing);
    if (tags.length) blocks.push(tags.join(' '));
    // Over a short-form platform's limit the service makes it a thread: nothing is cut here.
    return blocks.filter(Boolean).join('\n\n');
  });
}

/**
 * A brief that only names a topic ("data engineer story", "Tips for remote onboarding") gives no
 * fact to write with: each draft is a shape in the author's words to come, every fact it needs a
 * marked blank ("[the first thing]"), so nothing is invented and nothing of the label is pasted.
 */
function scaffolds(topic: string, archetype: HookArchetype | undefined): string[] {
  // "the FY25 plan" where the label picks out one; a label whose article cannot be told
  // ("cloud bill") is named first, after which "it" needs none (themes.ts `articleUnknown`).
  const theme = labelTheme(topic);
  // The topic as brief-clean.ts said it, with "the" only where the theme adds one.
  const x = theme.phrase === theme.bare ? topic : `the ${topic}`;
  const X = capitalised(x);
  const drafts: Record<'story' | 'pure-number' | 'contrarian', string[]> = {
    story: [
      theme.articleUnknown
        ? `${X}: I learned the most about it from [one moment you can describe in a sentence].`
        : `I learned the most about ${x} from [one moment you can describe in a sentence].`,
      'What happened: [what you did, and what changed].',
      'What I would tell myself at the start: [the lesson, in one line].',
      'What would you do differently?',
    ],
    'pure-number': [
      theme.articleUnknown
        ? `${X}: three things I wish I had known about it.`
        : `Three things I wish I had known about ${x}:`,
      '- [the first thing]\n- [the second thing]\n- [the third thing]',
      'Which of these matches your experience?',
    ],
    contrarian: [
      theme.articleUnknown
        ? `${X}: most advice about it gets one thing wrong, and it is [the step people skip].`
        : `Most advice about ${x} gets one thing wrong: [the step people skip].`,
      'What works for me instead: [what you do, with one example].',
      'Where do you disagree?',
    ],
  };
  const order = (['story', 'pure-number', 'contrarian'] as const).slice();
  const asked = archetype ? (order as readonly string[]).indexOf(archetype) : -1;
  if (asked > 0) order.unshift(...order.splice(asked, 1));
  return order.map((a) => drafts[a].join('\n\n'));
}

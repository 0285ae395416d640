import type { HookArchetype } from '../../domain/enums.ts';
import { detectArchetype } from '../rules/hook.ts';
import { adviceAbout, agree, capitalised, impersonal } from '../text/themes.ts';
import { HOOK_MAX_CHARS, type Parts, stripEnd } from './brief-parts.ts';
import { lowerFirst, upperFirst } from './first-letter.ts';

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
export function blocksFor(
  archetype: HookArchetype,
  p: Parts,
  paragraphs: (lines: string[]) => string[],
): string[] {
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

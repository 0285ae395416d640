import { type Acts, countSides, type MeasureRow, type Side, side } from './row.ts';

/** Specifics and voice: numbers, names, tags, who speaks, and how it sounds. */

const log1p = Math.log1p;
/** A rate per 100 words, bounded at `cap`, in units of 5 per 100 words. */
const rate = (n: number, per100: (n: number) => number, cap: number) => Math.min(per100(n), cap) / 5;

const saysSides = (
  said: string,
  more: string,
  less: string,
  moreActs: Acts,
  lessActs: Acts,
): [Side, Side] => [
  side(`The post says ${said} more often than a typical post`, more, moreActs),
  side(`The post says ${said} less often than a typical post`, less, lessActs),
];

export const VOICE_MEASURES: MeasureRow[] = [
  {
    name: 'text.numbers',
    dimension: 'specificity',
    concept: 'specifics',
    label: 'Numbers',
    sides: [
      side('The post uses more numbers than a typical post', 'posts with more numbers', [
        'keep the numbers',
        'keep only the numbers that carry the point',
      ]),
      side('The post uses fewer numbers than a typical post', 'posts with fewer numbers', [
        'keep the numbers to the ones that matter',
        'give the count, the amount or the time it took',
      ]),
    ],
    value: (m) => rate(m.f.numbers, m.per100, 20),
  },
  {
    name: 'text.names',
    dimension: 'specificity',
    concept: 'specifics',
    label: 'Names',
    sides: [
      side('The post names more people, products or places than a typical post', 'posts with more names', [
        'keep the names',
        'keep only the names that matter to the point',
      ]),
      side('The post names fewer people, products or places than a typical post', 'posts with fewer names', [
        'keep the names to the ones that matter',
        'name the person, product or place you mean',
      ]),
    ],
    value: (m) => rate(m.f.properNouns, m.per100, 30),
  },
  {
    name: 'text.mentions',
    dimension: 'specificity',
    concept: 'tags',
    label: 'Tagged people',
    sides: [
      side('The post tags more people than a typical post', 'posts that tag more people', [
        'keep the tags',
        'tag only the people who are part of the story',
      ]),
      side('The post tags fewer people than a typical post', 'posts that tag fewer people', [
        'keep the tags to the people in the story',
        'tag the people who are part of the story',
      ]),
    ],
    value: (m) => log1p(m.f.mentions),
  },
  {
    name: 'text.first_person',
    dimension: 'voice',
    concept: 'voice',
    label: 'First person',
    // The measure counts every first-person word ("I", "me", "my", "myself", "I'm", ...) as one:
    // naming two of them would be false of a post that uses only the others.
    sides: [
      side(
        'The post speaks in the first person more often than a typical post',
        'posts written more in the first person',
        ['keep telling it as your own', 'say less about yourself and more about what the reader can use'],
      ),
      side(
        'The post speaks in the first person less often than a typical post',
        'posts written less in the first person',
        ['keep the focus off yourself', 'tell what you did, saw or learned'],
      ),
    ],
    value: (m) => rate(m.f.firstPerson, m.per100, 20),
  },
  {
    name: 'text.first_person_plural',
    dimension: 'voice',
    concept: 'voice',
    label: '"We" and "our"',
    sides: [
      side('The post speaks as "we" more often than a typical post', 'posts that say "we" more', [
        'keep speaking for the team',
        'say "I" where it is your own experience',
      ]),
      side('The post speaks as "we" less often than a typical post', 'posts that say "we" less', [
        'keep speaking for yourself',
        'say "we" where the work was the team\'s',
      ]),
    ],
    value: (m) => rate(m.f.firstPersonPlural, m.per100, 20),
  },
  {
    name: 'text.second_person',
    dimension: 'voice',
    concept: 'voice',
    label: '"You"',
    sides: saysSides(
      '"you"',
      'posts that say "you" more',
      'posts that say "you" less',
      ['keep talking to the reader', 'say "you" less and tell what you did'],
      ['keep the advice in your own experience', 'speak to the reader as "you" where you give advice'],
    ),
    value: (m) => rate(m.f.secondPerson, m.per100, 20),
  },
  {
    name: 'text.exclamations',
    dimension: 'voice',
    concept: 'voice',
    label: 'Exclamations',
    sides: countSides(
      'exclamations',
      ['keep the exclamations', 'end most sentences with a full stop'],
      ['keep the calm tone', 'let the one sentence that deserves it end with an exclamation mark'],
    ),
    value: (m) => log1p(m.f.exclamations),
  },
  {
    name: 'text.emoji',
    dimension: 'voice',
    concept: 'voice',
    label: 'Emoji',
    sides: countSides(
      'emoji',
      ['keep the emoji', 'cut the emoji that add no meaning'],
      ['keep the emoji to one or two', 'add an emoji where it adds meaning'],
    ),
    value: (m) => log1p(m.f.emoji),
  },
  {
    name: 'nlp.sentiment',
    dimension: 'voice',
    concept: 'voice',
    label: 'Overall sentiment',
    sides: [
      side('The post sounds more positive than a typical post', 'more positive posts', [
        'keep the tone',
        'say what went wrong as plainly as what went right',
      ]),
      side('The post sounds less positive than a typical post', 'less positive posts', [
        'keep the tone',
        'say what went well, not only what went wrong',
      ]),
    ],
    value: (m) => m.sentiment.compound,
  },
  {
    name: 'nlp.positive_words',
    dimension: 'voice',
    concept: 'voice',
    label: 'Positive words',
    sides: [
      side('The post uses more positive words than a typical post', 'posts with more positive words', [
        'keep the tone',
        'trade praise words for what actually happened',
      ]),
      side('The post uses fewer positive words than a typical post', 'posts with fewer positive words', [
        'keep the tone',
        'say plainly what went well',
      ]),
    ],
    value: (m) => m.sentiment.positive * 10,
  },
  {
    name: 'nlp.negative_words',
    dimension: 'voice',
    concept: 'voice',
    label: 'Negative words',
    sides: [
      side('The post uses more negative words than a typical post', 'posts with more negative words', [
        'keep the tone',
        'say the problem once and spend the rest on what to do about it',
      ]),
      side('The post uses fewer negative words than a typical post', 'posts with fewer negative words', [
        'keep the tone',
        'name the problem plainly',
      ]),
    ],
    value: (m) => m.sentiment.negative * 10,
  },
];

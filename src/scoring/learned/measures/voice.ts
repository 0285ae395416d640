import { countSides, type MeasureRow, type Side } from './row.ts';

/** Specifics and voice: numbers, names, tags, who speaks, and how it sounds. */

const log1p = Math.log1p;
/** A rate per 100 words, bounded at `cap`, in units of 5 per 100 words. */
const rate = (n: number, per100: (n: number) => number, cap: number) => Math.min(per100(n), cap) / 5;

const saysSides = (said: string, more: string, less: string): [Side, Side] => [
  { post: `The post says ${said} more often than a typical post`, group: more },
  { post: `The post says ${said} less often than a typical post`, group: less },
];

export const VOICE_MEASURES: MeasureRow[] = [
  {
    name: 'text.numbers',
    dimension: 'specificity',
    concept: 'specifics',
    label: 'Numbers',
    sides: [
      { post: 'The post uses more numbers than a typical post', group: 'posts with more numbers' },
      { post: 'The post uses fewer numbers than a typical post', group: 'posts with fewer numbers' },
    ],
    value: (m) => rate(m.f.numbers, m.per100, 20),
  },
  {
    name: 'text.names',
    dimension: 'specificity',
    concept: 'specifics',
    label: 'Names',
    sides: [
      {
        post: 'The post names more people, products or places than a typical post',
        group: 'posts with more names',
      },
      {
        post: 'The post names fewer people, products or places than a typical post',
        group: 'posts with fewer names',
      },
    ],
    value: (m) => rate(m.f.properNouns, m.per100, 30),
  },
  {
    name: 'text.mentions',
    dimension: 'specificity',
    concept: 'tags',
    label: 'Tagged people',
    sides: [
      { post: 'The post tags more people than a typical post', group: 'posts that tag more people' },
      { post: 'The post tags fewer people than a typical post', group: 'posts that tag fewer people' },
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
      {
        post: 'The post speaks in the first person more often than a typical post',
        group: 'posts written more in the first person',
      },
      {
        post: 'The post speaks in the first person less often than a typical post',
        group: 'posts written less in the first person',
      },
    ],
    value: (m) => rate(m.f.firstPerson, m.per100, 20),
  },
  {
    name: 'text.first_person_plural',
    dimension: 'voice',
    concept: 'voice',
    label: '"We" and "our"',
    sides: [
      { post: 'The post speaks as "we" more often than a typical post', group: 'posts that say "we" more' },
      { post: 'The post speaks as "we" less often than a typical post', group: 'posts that say "we" less' },
    ],
    value: (m) => rate(m.f.firstPersonPlural, m.per100, 20),
  },
  {
    name: 'text.second_person',
    dimension: 'voice',
    concept: 'voice',
    label: '"You"',
    sides: saysSides('"you"', 'posts that say "you" more', 'posts that say "you" less'),
    value: (m) => rate(m.f.secondPerson, m.per100, 20),
  },
  {
    name: 'text.exclamations',
    dimension: 'voice',
    concept: 'voice',
    label: 'Exclamations',
    sides: countSides('exclamations'),
    value: (m) => log1p(m.f.exclamations),
  },
  {
    name: 'text.emoji',
    dimension: 'voice',
    concept: 'voice',
    label: 'Emoji',
    sides: countSides('emoji'),
    value: (m) => log1p(m.f.emoji),
  },
  {
    name: 'nlp.sentiment',
    dimension: 'voice',
    concept: 'voice',
    label: 'Overall sentiment',
    sides: [
      { post: 'The post sounds more positive than a typical post', group: 'more positive posts' },
      { post: 'The post sounds less positive than a typical post', group: 'less positive posts' },
    ],
    value: (m) => m.sentiment.compound,
  },
  {
    name: 'nlp.positive_words',
    dimension: 'voice',
    concept: 'voice',
    label: 'Positive words',
    sides: [
      {
        post: 'The post uses more positive words than a typical post',
        group: 'posts with more positive words',
      },
      {
        post: 'The post uses fewer positive words than a typical post',
        group: 'posts with fewer positive words',
      },
    ],
    value: (m) => m.sentiment.positive * 10,
  },
  {
    name: 'nlp.negative_words',
    dimension: 'voice',
    concept: 'voice',
    label: 'Negative words',
    sides: [
      {
        post: 'The post uses more negative words than a typical post',
        group: 'posts with more negative words',
      },
      {
        post: 'The post uses fewer negative words than a typical post',
        group: 'posts with fewer negative words',
      },
    ],
    value: (m) => m.sentiment.negative * 10,
  },
];

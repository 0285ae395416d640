import { countSides, type MeasureRow } from './row.ts';

/** Word choice, questions, and the last of the shape and style measures (the model's order). */

const log1p = Math.log1p;

export const REPLY_MEASURES: MeasureRow[] = [
  {
    name: 'text.word_choice',
    dimension: 'engagement',
    concept: 'word_choice',
    label: 'Word choice',
    // Worded by the words themselves (explain.ts), not by sides.
    value: (m) => m.choice,
  },
  {
    name: 'text.questions',
    dimension: 'engagement',
    concept: 'questions',
    label: 'Questions',
    sides: [
      { post: 'The post asks more questions than a typical post', group: 'posts with more questions' },
      { post: 'The post asks fewer questions than a typical post', group: 'posts with fewer questions' },
    ],
    value: (m) => log1p(m.f.questions),
  },
  {
    name: 'text.ends_with_question',
    dimension: 'engagement',
    concept: 'questions',
    label: 'Closing line',
    sides: [
      { post: 'The post ends on a question', group: 'posts that end on a question' },
      { post: 'The post does not end on a question', group: 'posts that end another way' },
    ],
    value: (m) => (m.f.endsWithQuestion ? 1 : 0),
  },
  {
    name: 'text.lines',
    dimension: 'structure',
    concept: 'layout',
    label: 'Number of lines',
    sides: countSides('lines'),
    value: (m) => log1p(m.f.lines),
  },
  {
    name: 'text.inline_hashtags',
    dimension: 'algorithmFit',
    concept: 'hashtags',
    label: 'Hashtag placement',
    sides: [
      { post: 'The post has hashtags inside its sentences', group: 'posts with hashtags inside the text' },
      {
        post: 'The post keeps hashtags out of its sentences',
        group: 'posts without hashtags inside the text',
      },
    ],
    value: (m) => log1p(m.f.inlineHashtags),
  },
  {
    name: 'text.styled_unicode',
    dimension: 'voice',
    concept: 'layout',
    label: 'Styled letters',
    sides: [
      {
        post: 'The post uses styled Unicode letters (bold or italic lookalikes)',
        group: 'posts with styled letters',
      },
      { post: 'The post uses no styled Unicode letters', group: 'posts without styled letters' },
    ],
    value: (m) => (m.f.styledLetters > 0 ? 1 : 0),
  },
];

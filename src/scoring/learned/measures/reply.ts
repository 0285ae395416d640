import { countSides, type MeasureRow, side } from './row.ts';

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
      side('The post asks more questions than a typical post', 'posts with more questions', [
        'keep the questions',
        'keep the one question you want answered',
      ]),
      side('The post asks fewer questions than a typical post', 'posts with fewer questions', [
        'keep the questions to one or two',
        'ask readers one real question',
      ]),
    ],
    value: (m) => log1p(m.f.questions),
  },
  {
    name: 'text.ends_with_question',
    dimension: 'engagement',
    concept: 'questions',
    label: 'Closing line',
    sides: [
      side('The post ends on a question', 'posts that end on a question', [
        'keep the closing question',
        'end on your point instead of a question',
      ]),
      side('The post does not end on a question', 'posts that end another way', [
        'keep the ending',
        'end on a question readers can answer from their own work',
      ]),
    ],
    value: (m) => (m.f.endsWithQuestion ? 1 : 0),
  },
  {
    name: 'text.lines',
    dimension: 'structure',
    concept: 'layout',
    label: 'Number of lines',
    sides: countSides(
      'lines',
      ['keep the lines', 'join the lines that belong together'],
      ['keep the lines as they are', 'give each idea a line of its own'],
    ),
    value: (m) => log1p(m.f.lines),
  },
  {
    name: 'text.inline_hashtags',
    dimension: 'algorithmFit',
    concept: 'hashtags',
    label: 'Hashtag placement',
    sides: [
      side('The post has hashtags inside its sentences', 'posts with hashtags inside the text', [
        'keep the hashtags where they are',
        'move the hashtags out of the sentences, to the end',
      ]),
      side('The post keeps hashtags out of its sentences', 'posts without hashtags inside the text', [
        'keep the hashtags out of the sentences',
        'make a key word inside a sentence a hashtag',
      ]),
    ],
    value: (m) => log1p(m.f.inlineHashtags),
  },
  {
    name: 'text.styled_unicode',
    dimension: 'voice',
    concept: 'layout',
    label: 'Styled letters',
    sides: [
      side('The post uses styled Unicode letters (bold or italic lookalikes)', 'posts with styled letters', [
        'keep them for headings only, since screen readers cannot read them',
        'write in plain letters, which screen readers and search can read',
      ]),
      side('The post uses no styled Unicode letters', 'posts without styled letters', [
        'keep the plain letters',
        'set a heading in bold lookalike letters if you need one, knowing screen readers cannot read them',
      ]),
    ],
    value: (m) => (m.f.styledLetters > 0 ? 1 : 0),
  },
];

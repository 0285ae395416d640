import { countSides, type MeasureRow } from './row.ts';

/** The opening and the post's shape: sentences, paragraphs, line breaks, lists. */

const log1p = Math.log1p;
const FIRST_PERSON_START = /^[^\p{L}]{0,3}(?:I|I['’](?:m|ve|d|ll)|My|We|Our)(?![\p{L}])/u;

export const FORM_MEASURES: MeasureRow[] = [
  {
    name: 'text.hook_length',
    dimension: 'hook',
    concept: 'opening',
    label: 'Opening length',
    sides: [
      { post: 'The opening sentence is longer than in a typical post', group: 'posts with longer openings' },
      {
        post: 'The opening sentence is shorter than in a typical post',
        group: 'posts with shorter openings',
      },
    ],
    value: (m) => log1p(m.f.hook.length),
  },
  {
    name: 'text.hook_own_line',
    dimension: 'hook',
    concept: 'opening',
    label: 'Opening line layout',
    sides: [
      { post: 'The opening line stands on its own', group: 'posts whose first line stands alone' },
      { post: 'The opening line does not stand on its own', group: 'posts whose first line runs on' },
    ],
    value: (m) => (m.f.hasLineBreaks && m.f.firstLine.length < 160 ? 1 : 0),
  },
  {
    name: 'text.hook_first_person',
    dimension: 'hook',
    concept: 'opening',
    label: 'How the post opens',
    sides: [
      { post: 'The post opens in the first person', group: 'posts that open with "I", "my", "we" or "our"' },
      { post: 'The post does not open in the first person', group: 'posts that open another way' },
    ],
    value: (m) => (FIRST_PERSON_START.test(m.f.hook) ? 1 : 0),
  },
  {
    name: 'text.sentences',
    dimension: 'structure',
    concept: 'sentences',
    label: 'Number of sentences',
    sides: countSides('sentences'),
    value: (m) => log1p(m.f.sentences),
  },
  {
    name: 'text.paragraphs',
    dimension: 'structure',
    concept: 'layout',
    label: 'Number of paragraphs',
    sides: countSides('paragraphs'),
    value: (m) => log1p(m.f.paragraphs),
  },
  {
    name: 'text.sentence_words',
    dimension: 'structure',
    concept: 'sentences',
    label: 'Words per sentence',
    sides: [
      { post: 'The sentences are longer than in a typical post', group: 'posts with longer sentences' },
      { post: 'The sentences are shorter than in a typical post', group: 'posts with shorter sentences' },
    ],
    value: (m) => Math.min(m.f.avgSentenceWords, 60) / 10,
  },
  {
    name: 'text.line_breaks',
    dimension: 'structure',
    concept: 'layout',
    label: 'Line breaks',
    sides: [
      { post: 'The post has line breaks', group: 'posts with line breaks' },
      { post: 'The post has no line breaks', group: 'posts without line breaks' },
    ],
    value: (m) => (m.f.hasLineBreaks ? 1 : 0),
  },
  {
    name: 'text.list_lines',
    dimension: 'structure',
    concept: 'layout',
    label: 'List lines',
    sides: countSides('list lines'),
    value: (m) => log1p(m.f.listLines),
  },
];

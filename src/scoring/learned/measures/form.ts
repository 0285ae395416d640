import { personLength } from '../../text/person-length.ts';
import { countSides, growsOnSecond, type MeasureRow, side } from './row.ts';

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
      side('The opening sentence is longer than in a typical post', 'posts with longer openings', [
        'keep the opening as it is',
        'cut the opening sentence to its point',
      ]),
      side('The opening sentence is shorter than in a typical post', 'posts with shorter openings', [
        'keep the opening short',
        'let the opening sentence say what the post is about',
      ]),
    ],
    // Characters as a person counts them (text/person-length.ts): an emoji is one.
    value: (m) => log1p(personLength(m.f.hook)),
  },
  {
    name: 'text.hook_own_line',
    dimension: 'hook',
    // Layout, not opening: whether the first line stands alone is a line break, and told apart
    // from the other line-break measures it said "keep it running on" beside "give each idea a
    // line of its own" (text.lines) on the same post. In one concept they net to one say.
    concept: 'layout',
    label: 'Opening line layout',
    sides: [
      side('The opening line stands on its own', 'posts whose first line stands alone', [
        'keep it on a line of its own',
        'run it on into the next sentence',
      ]),
      side('The opening line does not stand on its own', 'posts whose first line runs on', [
        'keep it running on',
        'give the opening line a line of its own',
      ]),
    ],
    value: (m) => (m.f.hasLineBreaks && personLength(m.f.firstLine) < 160 ? 1 : 0),
  },
  {
    name: 'text.hook_first_person',
    dimension: 'hook',
    concept: 'opening',
    label: 'How the post opens',
    sides: [
      side('The post opens in the first person', 'posts that open with "I", "my", "we" or "our"', [
        'keep the opening in your own voice',
        'open on the point itself rather than on yourself',
      ]),
      side('The post does not open in the first person', 'posts that open another way', [
        'keep the opening as it is',
        'open with what you did, saw or learned',
      ]),
    ],
    value: (m) => (FIRST_PERSON_START.test(m.f.hook) ? 1 : 0),
  },
  {
    name: 'text.sentences',
    dimension: 'structure',
    concept: 'sentences',
    label: 'Number of sentences',
    sides: growsOnSecond(
      countSides(
        'sentences',
        ['keep the sentences', 'cut the sentences that repeat the point'],
        ['keep it tight', 'add a sentence on what it showed and one on what you would do next'],
      ),
    ),
    value: (m) => log1p(m.f.sentences),
  },
  {
    name: 'text.paragraphs',
    dimension: 'structure',
    concept: 'layout',
    label: 'Number of paragraphs',
    sides: countSides(
      'paragraphs',
      ['keep the paragraphs', 'join the paragraphs that say one thing'],
      ['keep the paragraphs as they are', 'break the text into short paragraphs'],
    ),
    value: (m) => log1p(m.f.paragraphs),
  },
  {
    name: 'text.sentence_words',
    dimension: 'structure',
    concept: 'sentences',
    label: 'Words per sentence',
    sides: [
      side('The sentences are longer than in a typical post', 'posts with longer sentences', [
        'keep the sentences as they are',
        'split the longest sentences in two',
      ]),
      side('The sentences are shorter than in a typical post', 'posts with shorter sentences', [
        'keep the sentences short',
        'join the short sentences that belong together',
      ]),
    ],
    value: (m) => Math.min(m.f.avgSentenceWords, 60) / 10,
  },
  {
    name: 'text.line_breaks',
    dimension: 'structure',
    concept: 'layout',
    label: 'Line breaks',
    sides: [
      side('The post has line breaks', 'posts with line breaks', [
        'keep the line breaks',
        'run the lines together into one paragraph',
      ]),
      side('The post has no line breaks', 'posts without line breaks', [
        'keep it as one paragraph',
        'break it into short paragraphs',
      ]),
    ],
    value: (m) => (m.f.hasLineBreaks ? 1 : 0),
  },
  {
    name: 'text.list_lines',
    dimension: 'structure',
    concept: 'layout',
    label: 'List lines',
    sides: countSides(
      'list lines',
      ['keep the list', 'turn the list into sentences'],
      ['keep it in sentences', 'put the steps or points in a short list'],
    ),
    value: (m) => log1p(m.f.listLines),
  },
];

import { countSides, growsOnFirst, growsOnSecond, type MeasureRow, side } from './row.ts';

/** Length, hashtags and links: what the feed reads before anyone reads the post. */

const log1p = Math.log1p;
/** log(1,000 characters): the usual length the squared distance is measured from. */
const USUAL = Math.log(1000);

export const REACH_MEASURES: MeasureRow[] = [
  {
    name: 'text.length',
    dimension: 'algorithmFit',
    concept: 'length',
    label: 'Post length',
    sides: growsOnSecond([
      side('The post is longer than a typical post', 'longer posts', [
        'keep the detail that makes it long',
        'cut what does not carry the point',
      ]),
      side('The post is shorter than a typical post', 'shorter posts', [
        'keep it short',
        'add the detail a reader needs, such as a figure or an example',
      ]),
    ]),
    value: (m) => m.logLength,
  },
  {
    name: 'text.length_squared',
    dimension: 'algorithmFit',
    concept: 'length',
    label: 'Post length',
    sides: [
      side('The post is far from the usual length of about 1,000 characters', 'posts far from that length', [
        'keep its length',
        'bring it closer to about 1,000 characters',
      ]),
      side('The post is close to the usual length of about 1,000 characters', 'posts close to that length', [
        'keep its length',
        'make it clearly shorter, or longer with a detail that earns the length',
      ]),
    ],
    // Squared distance from ~1,000 characters (log scale): lets a linear model learn a band.
    value: (m) => (m.logLength - USUAL) * (m.logLength - USUAL),
  },
  {
    name: 'text.length_band_short',
    dimension: 'algorithmFit',
    concept: 'length',
    label: 'Post length',
    sides: growsOnFirst([
      side('The post is under 300 characters', 'posts under 300 characters', [
        'keep it short',
        'take it past 300 characters with what happened and what it showed',
      ]),
      side('The post is 300 characters or longer', 'posts of 300 characters or more', [
        'keep its length',
        'cut it to the one point that matters, under 300 characters',
      ]),
    ]),
    value: (m) => (m.f.chars < 300 ? 1 : 0),
  },
  {
    name: 'text.length_band_medium',
    dimension: 'algorithmFit',
    concept: 'length',
    label: 'Post length',
    sides: [
      side('The post is 300-700 characters long', 'posts of 300-700 characters', [
        'keep its length',
        'make it clearly shorter, or longer with a detail that earns the length',
      ]),
      side('The post is not 300-700 characters long', 'posts of other lengths', [
        'keep its length',
        'bring it to 300-700 characters',
      ]),
    ],
    value: (m) => (m.f.chars >= 300 && m.f.chars < 700 ? 1 : 0),
  },
  {
    name: 'text.length_band_long',
    dimension: 'algorithmFit',
    concept: 'length',
    label: 'Post length',
    sides: [
      side('The post is 1,300-2,000 characters long', 'posts of 1,300-2,000 characters', [
        'keep its length',
        'cut it under 1,300 characters',
      ]),
      side('The post is not 1,300-2,000 characters long', 'posts of other lengths', [
        'keep its length',
        'bring it to 1,300-2,000 characters',
      ]),
    ],
    value: (m) => (m.f.chars >= 1300 && m.f.chars < 2000 ? 1 : 0),
  },
  {
    name: 'text.length_band_very_long',
    dimension: 'algorithmFit',
    concept: 'length',
    label: 'Post length',
    sides: [
      side('The post is over 2,000 characters', 'posts over 2,000 characters', [
        'keep its length',
        'cut it under 2,000 characters',
      ]),
      side('The post is 2,000 characters or shorter', 'posts of 2,000 characters or fewer', [
        'keep it under 2,000 characters',
        'let it run past 2,000 characters if you have that much to say',
      ]),
    ],
    value: (m) => (m.f.chars >= 2000 ? 1 : 0),
  },
  {
    name: 'text.hashtags',
    dimension: 'algorithmFit',
    concept: 'hashtags',
    label: 'Hashtags',
    sides: countSides(
      'hashtags',
      ['keep the hashtags', 'cut the hashtags to the one or two that matter'],
      ['keep the hashtags to one or two', 'add one or two hashtags readers follow'],
    ),
    value: (m) => log1p(m.hashtags),
  },
  {
    name: 'text.links',
    dimension: 'algorithmFit',
    concept: 'links',
    label: 'Links',
    sides: countSides(
      'links',
      ['keep the links', 'put the links in the first comment'],
      ['keep links out of the body', 'link the source you mention'],
    ),
    value: (m) => Math.min(m.links, 3),
  },
];

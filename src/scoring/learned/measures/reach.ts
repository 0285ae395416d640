import { countSides, type MeasureRow } from './row.ts';

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
    sides: [
      { post: 'The post is longer than a typical post', group: 'longer posts' },
      { post: 'The post is shorter than a typical post', group: 'shorter posts' },
    ],
    value: (m) => m.logLength,
  },
  {
    name: 'text.length_squared',
    dimension: 'algorithmFit',
    concept: 'length',
    label: 'Post length',
    sides: [
      {
        post: 'The post is far from the usual length of about 1,000 characters',
        group: 'posts far from that length',
      },
      {
        post: 'The post is close to the usual length of about 1,000 characters',
        group: 'posts close to that length',
      },
    ],
    // Squared distance from ~1,000 characters (log scale): lets a linear model learn a band.
    value: (m) => (m.logLength - USUAL) * (m.logLength - USUAL),
  },
  {
    name: 'text.length_band_short',
    dimension: 'algorithmFit',
    concept: 'length',
    label: 'Post length',
    sides: [
      { post: 'The post is under 300 characters', group: 'posts under 300 characters' },
      { post: 'The post is 300 characters or longer', group: 'posts of 300 characters or more' },
    ],
    value: (m) => (m.f.length < 300 ? 1 : 0),
  },
  {
    name: 'text.length_band_medium',
    dimension: 'algorithmFit',
    concept: 'length',
    label: 'Post length',
    sides: [
      { post: 'The post is 300-700 characters long', group: 'posts of 300-700 characters' },
      { post: 'The post is not 300-700 characters long', group: 'posts of other lengths' },
    ],
    value: (m) => (m.f.length >= 300 && m.f.length < 700 ? 1 : 0),
  },
  {
    name: 'text.length_band_long',
    dimension: 'algorithmFit',
    concept: 'length',
    label: 'Post length',
    sides: [
      { post: 'The post is 1,300-2,000 characters long', group: 'posts of 1,300-2,000 characters' },
      { post: 'The post is not 1,300-2,000 characters long', group: 'posts of other lengths' },
    ],
    value: (m) => (m.f.length >= 1300 && m.f.length < 2000 ? 1 : 0),
  },
  {
    name: 'text.length_band_very_long',
    dimension: 'algorithmFit',
    concept: 'length',
    label: 'Post length',
    sides: [
      { post: 'The post is over 2,000 characters', group: 'posts over 2,000 characters' },
      { post: 'The post is 2,000 characters or shorter', group: 'posts of 2,000 characters or fewer' },
    ],
    value: (m) => (m.f.length >= 2000 ? 1 : 0),
  },
  {
    name: 'text.hashtags',
    dimension: 'algorithmFit',
    concept: 'hashtags',
    label: 'Hashtags',
    sides: countSides('hashtags'),
    value: (m) => log1p(m.hashtags),
  },
  {
    name: 'text.links',
    dimension: 'algorithmFit',
    concept: 'links',
    label: 'Links',
    sides: countSides('links'),
    value: (m) => Math.min(m.links, 3),
  },
];

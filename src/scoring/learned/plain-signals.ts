/**
 * The sentences a writer reads for the learned model's measures: one correct English sentence
 * per side of each feature, written for what the feature is. A yes/no feature says whether
 * the post does it; a measure says whether the post has more or less of it than a typical
 * post. `group` names the posts on that side, for "among the same authors' posts, <group>
 * went with more engagement".
 */

export interface Side {
  /** What this post does, as a sentence without its full stop. */
  post: string;
  /** The posts on this side, as a plural noun phrase. */
  group: string;
}

/** [the post has more / does it, the post has less / does not]. */
export const MEASURE_SIDES: Record<string, [Side, Side]> = {
  'text.length': [
    { post: 'The post is longer than a typical post', group: 'longer posts' },
    { post: 'The post is shorter than a typical post', group: 'shorter posts' },
  ],
  'text.length_squared': [
    {
      post: 'The post is far from the usual length of about 1,000 characters',
      group: 'posts far from that length',
    },
    {
      post: 'The post is close to the usual length of about 1,000 characters',
      group: 'posts close to that length',
    },
  ],
  'text.length_band_short': [
    { post: 'The post is under 300 characters', group: 'posts under 300 characters' },
    { post: 'The post is 300 characters or longer', group: 'posts of 300 characters or more' },
  ],
  'text.length_band_medium': [
    { post: 'The post is 300-700 characters long', group: 'posts of 300-700 characters' },
    { post: 'The post is not 300-700 characters long', group: 'posts of other lengths' },
  ],
  'text.length_band_long': [
    { post: 'The post is 1,300-2,000 characters long', group: 'posts of 1,300-2,000 characters' },
    { post: 'The post is not 1,300-2,000 characters long', group: 'posts of other lengths' },
  ],
  'text.length_band_very_long': [
    { post: 'The post is over 2,000 characters', group: 'posts over 2,000 characters' },
    { post: 'The post is 2,000 characters or shorter', group: 'posts of 2,000 characters or fewer' },
  ],
  'text.hashtags': [
    { post: 'The post has more hashtags than a typical post', group: 'posts with more hashtags' },
    { post: 'The post has fewer hashtags than a typical post', group: 'posts with fewer hashtags' },
  ],
  'text.links': [
    { post: 'The post has more links than a typical post', group: 'posts with more links' },
    { post: 'The post has fewer links than a typical post', group: 'posts with fewer links' },
  ],
  'text.hook_length': [
    { post: 'The opening sentence is longer than in a typical post', group: 'posts with longer openings' },
    { post: 'The opening sentence is shorter than in a typical post', group: 'posts with shorter openings' },
  ],
  'text.hook_own_line': [
    { post: 'The opening line stands on its own', group: 'posts whose first line stands alone' },
    { post: 'The opening line does not stand on its own', group: 'posts whose first line runs on' },
  ],
  'text.hook_first_person': [
    { post: 'The post opens in the first person', group: 'posts that open with "I", "my", "we" or "our"' },
    { post: 'The post does not open in the first person', group: 'posts that open another way' },
  ],
  'text.sentences': [
    { post: 'The post has more sentences than a typical post', group: 'posts with more sentences' },
    { post: 'The post has fewer sentences than a typical post', group: 'posts with fewer sentences' },
  ],
  'text.paragraphs': [
    { post: 'The post has more paragraphs than a typical post', group: 'posts with more paragraphs' },
    { post: 'The post has fewer paragraphs than a typical post', group: 'posts with fewer paragraphs' },
  ],
  'text.sentence_words': [
    { post: 'The sentences are longer than in a typical post', group: 'posts with longer sentences' },
    { post: 'The sentences are shorter than in a typical post', group: 'posts with shorter sentences' },
  ],
  'text.line_breaks': [
    { post: 'The post has line breaks', group: 'posts with line breaks' },
    { post: 'The post has no line breaks', group: 'posts without line breaks' },
  ],
  'text.list_lines': [
    { post: 'The post has more list lines than a typical post', group: 'posts with more list lines' },
    { post: 'The post has fewer list lines than a typical post', group: 'posts with fewer list lines' },
  ],
  'text.numbers': [
    { post: 'The post uses more numbers than a typical post', group: 'posts with more numbers' },
    { post: 'The post uses fewer numbers than a typical post', group: 'posts with fewer numbers' },
  ],
  'text.names': [
    {
      post: 'The post names more people, products or places than a typical post',
      group: 'posts with more names',
    },
    {
      post: 'The post names fewer people, products or places than a typical post',
      group: 'posts with fewer names',
    },
  ],
  'text.mentions': [
    { post: 'The post tags more people than a typical post', group: 'posts that tag more people' },
    { post: 'The post tags fewer people than a typical post', group: 'posts that tag fewer people' },
  ],
  'text.first_person': [
    {
      post: 'The post says "I" and "my" more often than a typical post',
      group: 'posts written more in the first person',
    },
    {
      post: 'The post says "I" and "my" less often than a typical post',
      group: 'posts written less in the first person',
    },
  ],
  'text.first_person_plural': [
    {
      post: 'The post says "we" and "our" more often than a typical post',
      group: 'posts that say "we" more',
    },
    {
      post: 'The post says "we" and "our" less often than a typical post',
      group: 'posts that say "we" less',
    },
  ],
  'text.second_person': [
    { post: 'The post says "you" more often than a typical post', group: 'posts that say "you" more' },
    { post: 'The post says "you" less often than a typical post', group: 'posts that say "you" less' },
  ],
  'text.exclamations': [
    { post: 'The post has more exclamations than a typical post', group: 'posts with more exclamations' },
    { post: 'The post has fewer exclamations than a typical post', group: 'posts with fewer exclamations' },
  ],
  'text.emoji': [
    { post: 'The post has more emoji than a typical post', group: 'posts with more emoji' },
    { post: 'The post has fewer emoji than a typical post', group: 'posts with fewer emoji' },
  ],
  'nlp.sentiment': [
    { post: 'The post sounds more positive than a typical post', group: 'more positive posts' },
    { post: 'The post sounds less positive than a typical post', group: 'less positive posts' },
  ],
  'nlp.positive_words': [
    {
      post: 'The post uses more positive words than a typical post',
      group: 'posts with more positive words',
    },
    {
      post: 'The post uses fewer positive words than a typical post',
      group: 'posts with fewer positive words',
    },
  ],
  'nlp.negative_words': [
    {
      post: 'The post uses more negative words than a typical post',
      group: 'posts with more negative words',
    },
    {
      post: 'The post uses fewer negative words than a typical post',
      group: 'posts with fewer negative words',
    },
  ],
  'text.questions': [
    { post: 'The post asks more questions than a typical post', group: 'posts with more questions' },
    { post: 'The post asks fewer questions than a typical post', group: 'posts with fewer questions' },
  ],
  'text.ends_with_question': [
    { post: 'The post ends on a question', group: 'posts that end on a question' },
    { post: 'The post does not end on a question', group: 'posts that end another way' },
  ],
  'text.lines': [
    { post: 'The post has more lines than a typical post', group: 'posts with more lines' },
    { post: 'The post has fewer lines than a typical post', group: 'posts with fewer lines' },
  ],
  'text.inline_hashtags': [
    { post: 'The post has hashtags inside its sentences', group: 'posts with hashtags inside the text' },
    { post: 'The post keeps hashtags out of its sentences', group: 'posts without hashtags inside the text' },
  ],
  'text.styled_unicode': [
    {
      post: 'The post uses styled Unicode letters (bold or italic lookalikes)',
      group: 'posts with styled letters',
    },
    { post: 'The post uses no styled Unicode letters', group: 'posts without styled letters' },
  ],
};

/** Which side of a measure a post is on: more than the training mean (or yes) is side 0. */
export const sideOf = (name: string, value: number, mean: number): Side | undefined =>
  MEASURE_SIDES[name]?.[value >= mean ? 0 : 1];

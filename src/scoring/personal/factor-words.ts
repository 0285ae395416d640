/**
 * The features whose measured effect in an author's history is told (insights' factors and the
 * personal score's signals), and how each is said. A factor is measured by splitting the
 * author's posts into those with the feature (its value is not 0) and those without, so a
 * feature is told only when that split means something a writer can see in a post: a rule that
 * fired, a band, a count that is above 0, a media kind. Continuous measures every post has
 * (length, sentiment, word choice, sentence length) and judge grades split nothing and are never
 * told; nor are rules that fire for opposite reasons (the fold: an opening that fits before it or
 * one cut by it), nor text only, which is also what a post imported without its media is read as.
 *
 * `posts` is a plural noun phrase for the posts with the feature ("posts with a link in the
 * text"): every told figure is about at least MIN_EFFECT_POSTS posts, so it is never singular.
 * `topic` gathers the features that say the same thing about a post (a link rule and a link
 * count, the first-person rule and the first-person rate), so a writer is told about a topic once.
 */
export interface FactorWords {
  topic: string;
  label: string;
  posts: string;
}

const words = (topic: string, label: string, posts: string): FactorWords => ({ topic, label, posts });

const FACTOR_WORDS: Readonly<Record<string, FactorWords>> = {
  // Rules: "with it" is "the rule fired".
  'length.over_limit': words('length', 'Over the length limit', "posts over the platform's length limit"),
  'length.thin': words('length', 'Very short posts', 'very short posts'),
  'length.short': words(
    'length',
    'A little under the best length',
    'posts a little shorter than the length that usually does best',
  ),
  'length.sweet_spot': words(
    'length',
    'The length that usually does best',
    'posts of the length that usually does best',
  ),
  'length.long': words(
    'length',
    'Over the best length',
    'posts longer than the length that usually does best',
  ),
  'link.external': words('link', 'A link in the post', 'posts with a link in the text'),
  'hashtags.excess': words('hashtags', 'Many hashtags', 'posts with more hashtags than the platform rewards'),
  'mentions.excess': words('tags', 'Many tagged people', 'posts that tag more than five people'),
  'mentions.tagged': words('tags', 'Tagged people', 'posts that tag one to five people'),
  'engagement.bait': words('bait', 'Engagement bait', 'posts that ask for likes, comments or shares'),
  'hook.generic_opener': words('opening', 'A stock opening line', 'posts that open on a stock phrase'),
  'structure.wall_of_text': words('layout', 'No line breaks', 'long posts without a line break'),
  'structure.long_paragraph': words(
    'layout',
    'A dense paragraph',
    'posts with a paragraph over 400 characters',
  ),
  'structure.white_space': words('layout', 'Short paragraphs', 'posts in three or more short paragraphs'),
  'structure.sentence_band': words(
    'sentences',
    'The number of sentences that usually does best',
    'posts with the number of sentences that usually does best',
  ),
  'structure.few_sentences': words('sentences', 'Very few sentences', 'posts of fewer than five sentences'),
  'structure.long_sentences': words(
    'sentence length',
    'Long sentences',
    'posts whose sentences average over 28 words',
  ),
  'structure.list': words('lists', 'A list', 'posts with a list of three or more lines'),
  'specificity.numbers': words('numbers', 'Numbers', 'posts with a number in them'),
  'specificity.names': words('names', 'Many names', 'posts with several names in them'),
  'specificity.vague': words('vague', 'Vague wording', 'posts with vague wording'),
  'specificity.jargon': words('jargon', 'Corporate jargon', 'posts with corporate jargon'),
  'voice.ai_tells': words('ai tells', 'AI-tells', 'posts with phrases that read as machine-written'),
  'voice.em_dash_stack': words('em dashes', 'Many em dashes', 'posts with three or more em dashes'),
  'voice.not_x_but_y': words('not x but y', '"Not X but Y"', 'posts that say "not X but Y" more than once'),
  'voice.first_person': words('first person', 'Writing as "I"', 'posts written in the first person'),
  'voice.corporate_we': words('we', 'Company voice', 'posts that say "we" and "our" far more than "I"'),
  'voice.lecturing': words('you', 'Lecturing tone', 'posts that say "you" far more than "I" or "we"'),
  'engagement.personal_story': words('story', 'Personal stories', 'posts that tell a personal story or news'),
  'engagement.call_to_comment': words('comments', 'Asking for comments', 'posts that ask readers to comment'),
  'engagement.closing_question': words(
    'closing question',
    'A closing question',
    'posts that end on a question',
  ),
  'engagement.question_overload': words('questions', 'Many questions', 'posts with four or more questions'),
  // Measures: "with it" is "above 0" (a band, a count, a presence).
  'text.length_band_short': words('length', 'Under 300 characters', 'posts under 300 characters'),
  'text.length_band_medium': words('length', '300 to 699 characters', 'posts of 300 to 699 characters'),
  'text.length_band_long': words('length', '1,300 to 1,999 characters', 'posts of 1,300 to 1,999 characters'),
  'text.length_band_very_long': words(
    'length',
    '2,000 characters or more',
    'posts of 2,000 characters or more',
  ),
  'text.hashtags': words('hashtags', 'Hashtags', 'posts with hashtags'),
  'text.inline_hashtags': words(
    'hashtags',
    'Hashtags inside sentences',
    'posts with hashtags inside sentences',
  ),
  'text.links': words('link', 'Links', 'posts with a link'),
  'text.hook_own_line': words('opening', 'An opening line of its own', 'posts whose first line stands alone'),
  'text.hook_first_person': words(
    'opening',
    'Opening with "I" or "we"',
    'posts that open with "I", "my", "we" or "our"',
  ),
  'text.line_breaks': words('layout', 'Line breaks', 'posts with line breaks'),
  'text.list_lines': words('lists', 'List lines', 'posts with list lines'),
  'text.numbers': words('numbers', 'Numbers', 'posts with numbers'),
  'text.names': words('names', 'Names', 'posts with names in them'),
  'text.mentions': words('tags', 'Tagged people', 'posts that tag people'),
  'text.first_person': words('first person', '"I" and "my"', 'posts that say "I", "me" or "my"'),
  'text.first_person_plural': words('we', '"We" and "our"', 'posts that say "we", "us" or "our"'),
  'text.second_person': words('you', '"You"', 'posts that say "you"'),
  'text.exclamations': words('exclamations', 'Exclamation marks', 'posts with exclamation marks'),
  'text.emoji': words('emoji', 'Emoji', 'posts with emoji'),
  'text.styled_unicode': words(
    'styled letters',
    'Styled letters',
    'posts with bold or italic Unicode letters',
  ),
  'nlp.positive_words': words('positive words', 'Positive words', 'posts with positive words'),
  'nlp.negative_words': words('negative words', 'Negative words', 'posts with negative words'),
  'text.questions': words('questions', 'Questions', 'posts that ask a question'),
  'text.ends_with_question': words('closing question', 'A closing question', 'posts that end on a question'),
  // Media kinds, against everything else (text only is the baseline, and also what an import
  // without media is read as, so it is not told).
  'media.single-image': words('single image', 'A single image', 'posts with one image'),
  'media.multi-image': words('several images', 'Several images', 'posts with several images'),
  'media.document': words('document', 'Documents', 'posts with a document'),
  'media.video': words('video', 'Video', 'video posts'),
  'media.poll': words('poll', 'Polls', 'polls'),
  'media.link': words('link', 'Link posts', 'posts shared as a link'),
};

/** How a told feature is said, or undefined for a feature that is never told. */
export const factorWords = (feature: string): FactorWords | undefined => FACTOR_WORDS[feature];

/** Every told feature's name (for tests: each must be a feature of the global model). */
export const toldFeatureNames = (): string[] => Object.keys(FACTOR_WORDS);

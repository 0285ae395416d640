import { hasPhrase } from '../text/phrases.ts';
import { splitSentences } from '../text/rewrite-sentences.ts';

/**
 * News, thanks and congratulations ("Thrilled to share ...", "Congratulations to ...", "I'm
 * joining ...") as both offline writers read them (docs/decisions.md, "One reading of news").
 * The wording is the scorer's personal-news phrases and a bare "thanks", without two that say no
 * news: "my first" ("My first business failed." is a story; the scorer's lexicon keeps it, since
 * there it marks a personal story) and a "thanks to" that means "because of".
 */

/** Thanks the phrases miss ("Thanks everybody for your support!", "Thanks, Maria"); "thanks to" is theirs. */
const THANKS = /\bthanks\b(?! to\b)/i;

/**
 * "thanks to" that means "because of" ("it spread fast, thanks to its price") thanks nobody: it
 * follows a word of its own line, lower-cased, and that word is not a thanking one ("Many thanks
 * to", "May thanks to" (sic), "Huge, thanks to" thank; so does "Thanks to" opening a sentence, a
 * line or a run-on "Wow fam, Thanks to you ...").
 */
const BECAUSE_OF =
  /(\p{L}[,;]?[ \t]+)(?<!\b(?:many|may|huge|big|special|massive|heartfelt|sincere|and|a|with|my|our|warm|deep|extra|sincerest),?[ \t]+)thanks to\b/giu;
const dropCausal = (match: string, before: string) =>
  match.startsWith('thanks', before.length) ? before : match;

const saysNews = (text: string) =>
  THANKS.test(text) ||
  hasPhrase('personalNews', text.replace(/\bmy first\b/gi, ' ').replace(BECAUSE_OF, dropCausal));

/** The sentences that make a post's opening: a label line often comes first ("Proud mom moment 💙"). */
const OPENING_SENTENCES = 2;

/**
 * Whether a post or brief is news: its opening (first two sentences) says so. Generate then
 * tells it instead of arguing it. A thank-you further down ("Thanks to Maria for the photos.")
 * does not make an argued post an announcement.
 */
export function opensWithNews(text: string): boolean {
  const opening = text
    .split('\n')
    .flatMap((line) => splitSentences(line))
    .slice(0, OPENING_SENTENCES)
    .join(' ');
  return saysNews(opening);
}

/**
 * Whether news, thanks or congratulations are said anywhere in the text. The rewrite adds no
 * generic question to such a post: a question after "Huge thanks to my coauthors." or under an
 * announcement whose opening the phrases miss ("Sharing some incredible news that ...", then
 * "Thank you to ...") reads as if the reader were asked about the thanks, and leaving a post
 * without an added question costs nothing. Every post that opens with news says it.
 */
export const saysNewsAnywhere = (text: string): boolean => saysNews(text);

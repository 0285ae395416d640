import { tagText } from '../text/tagger.ts';
import { normalizePost } from '../text/text-features.ts';
import { isNounPhrases } from '../text/themes.ts';
import { cleanBrief, LABEL_MAX_WORDS } from './brief-clean.ts';
import { withoutCutWord } from './brief-cut.ts';
import { upperFirst } from './first-letter.ts';
import { opensWithNews } from './news-wording.ts';

/**
 * A brief as the offline drafts read it: its content as sentences (wink-nlp's sentence
 * boundaries, cut out of the brief as written), with everything that is about the post rather
 * than in it set aside: labels ("Tone: transparent, no spin.", "Audience: new nurses"),
 * instructions ("Keep it short.", "Write a post announcing that ..."), a link's label (the link
 * itself is kept). A draft is then made only of these sentences (drafts.ts).
 */

export interface BriefReading {
  /** Content sentences in the brief's order (a list's items are sentences too). */
  sentences: string[];
  /** The line that introduces a list ("Five lessons from ...:"), when the brief has one. */
  heading: string | null;
  /** The items under the heading, or the brief's own bullet lines: its points, in order. */
  points: string[];
  /** Links the brief gives, as written, once each (with the label a list of links gave each). */
  links: string[];
  /** The hashtags that closed a sentence or stood alone in the brief, once each: a draft ends with them. */
  hashtags: string[];
  /** A question the brief asks readers (its own, or one it told us to ask), said as a question. */
  question: string | null;
  /** The brief opens with news, thanks or congratulations. */
  news: boolean;
  /** The topic of a brief that is only a label ("data engineer story"); null when it has content. */
  topic: string | null;
  /** Labels and instructions taken off, as written: no draft may repeat them. */
  dropped: string[];
}

/** Labels whose value is about the post, not in it. */
const META_LABEL =
  /^(?:tone|voice|style|audience|target audience|readers?|cta|call to action|goal|objective|purpose|format|length|word count|hashtags?|platform|channel|keywords?|deadline|post type|type|mood|persona|register|language|emojis?|notes? to writer|instructions?)\s*:\s*/i;
/** Labels whose value is the content itself: the label goes, the value stays. */
const CONTENT_LABEL =
  /^(?:topic|subject|about|context|background|details?|facts?|key (?:points?|facts?|messages?)|points?|results?|numbers|story|what happened|news|update|summary|message)\s*:\s*/i;
const LINK_LABEL = /^(?:link|url|website|site|landing page|sign[- ]?up|register|more info)\s*:\s*/i;
const URL = /https?:\/\/\S+|\bwww\.\S+/gi;
const bareLink = (l: string) => l.replace(/[.,;:!?)]+$/, '');
/** A short capitalised label and its link, as in a list of roles or pages ("Senior Test Engineer: https://..."). */
const LABELLED_LINK =
  /(?<=^|\s)(\p{Lu}[\p{L}\p{N}'’&/]*(?:\s+(?:-\s+)?[\p{L}\p{N}'’&/]+){0,4}):\s*(https?:\/\/\S+|\bwww\.\S+)/gu;
/** A link in brackets, or after the preposition that introduced it: both go with the link. */
const LINK_WITH_SEAM =
  /\(\s*(?:https?:\/\/|www\.)[^\s)]+\s*\)|\b(?:at|via|on|here at|over at)\s+(?:https?:\/\/\S+|www\.\S+)/gi;
/** Characters that show nothing (invisible separators, zero-width spaces, a soft hyphen): "sun.\u2063" ended "sun.\u2063.". */
/** Two or more hashtags that end a sentence of words (a line of hashtags alone is a sentence here: the drafts put its tags at the end). */
const TRAILING_TAGS = /(?<=\S)(?:\s+#[\p{L}\p{N}_]+){2,}[ \t]*$/u;
const INVISIBLE = /[\u00AD\u200B\u2060-\u2064\uFEFF]/g;

/** A kind of post named after a topic ("Q3 content push story"): the topic is what comes before. */
const TRAILING_GENRE = /\s+(?:story|stories|post|posts|ideas?|tips|thread|update|announcement|recap)$/i;

/** A launch said in the opening is news too: "We're launching Bank import today!". */
const LAUNCH =
  /\b(?:(?:we|I)(?:'re| are| am|'m)? (?:launching|releasing|shipping|introducing|announcing|rolling out)|(?:is|are) (?:now )?(?:live|available|out)(?: now| today)?\b|introducing\b|just launched|launches today)/i;

/** Verbs of an instruction to the writer: "Mention that ...", "Include ...", "Keep it short". */
const TELL =
  /^(?:please\s+)?(?:(?:mention|include|highlight|emphasi[sz]e|explain|point out|remind (?:readers|people|everyone))\s+(?:that\s+)?|(?:say|note|stress|add)\s+that\s+)/i;
// "say", "note", "stress" and "add" tell the writer only with "that": "say no early" and "add
// tests first" are the brief's own advice, and cutting the verb left "No early.".
/** An instruction about the post's form, with nothing of its content to keep. */
const FORM =
  /^(?:please\s+)?(?:(?:keep|make)\s+it\b|(?:use|avoid|skip|no|don'?t use|do not use|without)\s+(?:any\s+)?(?:hashtags?|emojis?|jargon|buzzwords|exclamation marks?|links?|a (?:\w+ )?tone|the word)|(?:end|start|open|close|finish)\s+(?:it\s+|the post\s+)?with\b|(?:write|sound|be)\s+(?:it\s+)?(?:in|like|as|more|less|warm|casual|formal|friendly|professional|upbeat)\b|(?:keep|stay)\s+(?:under|below|within)\b|(?:tag|target|address)\s+\w+|(?:no|avoid)\s+(?:spin|hype|fluff|clich[eé]s?)\b|(?:don'?t|do not)\s+(?:oversell|exaggerate|use|mention|hype|spin)\b)/i;
/** "Ask readers how they ...": an instruction that becomes the draft's closing question. */
const ASK =
  /^(?:please\s+)?(?:ask|invite)\s+(?:the\s+)?(?:readers|people|followers|everyone|the audience|our audience|your audience|them|the community|our community|peers|others)\s+/i;

/** The sentences of a line, by wink-nlp's sentence boundaries, cut from the line as written. */
export function sentencesOfLine(line: string): string[] {
  const tokens = tagText(line);
  const out: string[] = [];
  let cursor = 0;
  let start = -1;
  let end = 0;
  let current = -1;
  for (const t of tokens) {
    const at = line.indexOf(t.value, cursor);
    if (at < 0) continue;
    // wink may end a sentence inside a name ("KSUG.AI"): a sentence glued to the one before is none.
    if (t.sentence !== current && (start < 0 || /\s/.test(line[at - 1] ?? ' '))) {
      if (start >= 0) out.push(line.slice(start, end).trim());
      start = at;
      current = t.sentence;
    }
    end = at + t.value.length;
    cursor = end;
  }
  if (start >= 0) out.push(line.slice(start, line.length).trim());
  // A piece with no word (a lone emoji or closing quote), one that goes on in lower case ("Aha!
  // has started ...") or one inside a quote the sentence before opened stays with that sentence.
  return out.reduce<string[]>((acc, s) => {
    const last = acc.at(-1);
    if (
      last !== undefined &&
      (!/[\p{L}\p{N}]/u.test(s) || /^\p{Ll}/u.test(s) || openQuote(last) || ABBREVIATION.test(last))
    )
      acc[acc.length - 1] = `${last} ${s}`;
    else if (s) acc.push(s);
    return acc;
  }, []);
}

/**
 * A stop that ends an abbreviation, not a sentence: "Ph.D.", "e.g.", "i.e.", "Dr." (wink ends a
 * sentence at "We are hiring a Ph.D." and the result shape then opened with "Intern for ...").
 */
const ABBREVIATION = /(?:\b(?:\p{L}{1,2}\.){2,}|\b(?:Dr|Mr|Mrs|Ms|Prof|St|vs|approx|cf)\.)$/u;

/** A quote opened and not closed yet. */
const openQuote = (s: string) =>
  (s.match(/“/g) ?? []).length > (s.match(/”/g) ?? []).length || (s.match(/"/g) ?? []).length % 2 === 1;

const endWith = (s: string) =>
  /[.!?…:]["'’”)]*$/u.test(s) || /\p{Extended_Pictographic}$/u.test(s) ? s : `${s}.`;

const FULL_AUX: Record<string, string> = { d: 'would', re: 'are', ve: 'have', ll: 'will' };

/**
 * "Ask readers how they handle handovers" -> "How do you handle handovers?"; "ask people to share
 * their worst shift" -> "Share your worst shift in the comments." The brief's own clause in the
 * second person; null when it cannot be said as a question.
 */
export function askedQuestion(rest: string): string | null {
  const clause = rest
    .trim()
    .replace(/[.!?]+$/, '')
    // "what they'd add": the auxiliary said in full, so it can open the question ("would you").
    .replace(
      /\b(they|you|we)['’](d|re|ve|ll)\b/gi,
      (_m, who: string, aux: string) => `${who} ${FULL_AUX[aux.toLowerCase()]}`,
    )
    .replace(/\bthey\b/gi, 'you')
    .replace(/\btheir\b/gi, 'your')
    .replace(/\bthem(?:selves)?\b/gi, (m) => (m.length > 4 ? 'yourselves' : 'you'));
  const share = /^(?:to\s+)?(share|tell us|comment|describe|name)\s+(.+)$/i.exec(clause);
  if (share) return `${upperFirst(share[1]!.toLowerCase())} ${share[2]} in the comments.`;
  const wh = /^(what|how|which|why|when|where|who|whether|if)\s+(.+)$/i.exec(clause);
  if (!wh) return null;
  const word = wh[1]!.toLowerCase();
  const body = wh[2]!;
  const tokens = tagText(body);
  const subject = tokens.findIndex((t) => t.normal === 'you');
  const verb = tokens[subject + 1];
  if (subject < 0 || !verb) return null;
  const before = body.slice(
    0,
    body.toLowerCase().indexOf(' you') < 0 ? 0 : body.toLowerCase().indexOf('you'),
  );
  const after = body.slice(body.toLowerCase().indexOf('you') + 3).trim();
  const yesNo = word === 'whether' || word === 'if';
  const lead = yesNo ? '' : `${word[0]!.toUpperCase()}${word.slice(1)} ${before}`.trimEnd();
  const aux = verb.pos === 'AUX';
  const rest2 = aux ? after.slice(verb.value.length).trim() : after;
  const auxWord = aux ? verb.value : /ed$/.test(verb.value) && verb.value !== verb.lemma ? 'did' : 'do';
  const main = aux ? rest2 : `${verb.lemma}${after.slice(verb.value.length)}`;
  const q = yesNo ? `${upperFirst(auxWord)} you ${main}?` : `${lead} ${auxWord} you ${main}?`;
  return q.replace(/\s+/g, ' ').replace(/\s+\?$/, '?');
}

const squashed = (s: string) =>
  ` ${s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}%$]+/gu, ' ')
    .trim()} `;
/** Whether an earlier sentence already says all of `s` (of four words or more). */
const saidIn = (earlier: string[], s: string) =>
  squashed(s).trim().split(' ').length >= 4 && earlier.some((e) => squashed(e).includes(squashed(s)));

const isBullet = (line: string) => /^\s*(?:[-•*·▪►✓✔→]|\d{1,2}[.)])\s+/u.test(line);
const unbullet = (line: string) => line.replace(/^\s*(?:[-•*·▪►✓✔→]|\d{1,2}[.)])\s+/u, '').trim();

/** Reads a brief into the sentences a draft may use (see BriefReading). */
export function readBrief(brief: string): BriefReading {
  const dropped: string[] = [];
  const links: string[] = [];
  const hashtags: string[] = [];
  let question: string | null = null;
  const keep = (link: string) => {
    if (!links.includes(link)) links.push(link);
  };
  /** The sentence without its links (kept for the draft's end), and without the seams they leave. */
  const keepLinks = (s: string) => {
    const out = s
      // "Test Engineer: https://..." the label goes with its link: alone it reads "Test Engineer: Senior ...".
      .replace(LABELLED_LINK, (_m, label: string, url: string) => {
        keep(`${label}: ${bareLink(url)}`);
        return ' ';
      })
      // "the feature ( https://... )" and "Apply at https://... by June 30": no "( )", no "at by".
      .replace(LINK_WITH_SEAM, (m) => {
        keep(bareLink(m.match(URL)![0]!));
        return ' ';
      })
      .replace(URL, (m) => {
        keep(bareLink(m));
        return ' ';
      })
      .replace(/\s+/g, ' ')
      .replace(/\s+([,.;!?])/g, '$1')
      // A stray stop after a stop ("health. .") is one stop, an ellipsis stays.
      .replace(/(?<!\.)([.!?])\.(?!\.)/g, '$1')
      .trim();
    if (out === s.trim()) return out;
    // A label whose value was its links ("Roles: Research Intern: https://...") goes with them.
    if (/^\p{L}[\p{L}\s-]{0,30}:$/u.test(out)) return '';
    // A colon that pointed at the link ("save your spot: https://...") ends the sentence instead.
    return /:$/.test(out) ? `${out.slice(0, -1)}.` : out;
  };
  /** One sentence of content, or null when it is about the post rather than in it. */
  const content = (raw: string): string | null => {
    let s = raw.trim();
    const meta = META_LABEL.exec(s);
    if (meta) {
      // "Hashtags: #hiring #golang" names the post's own hashtags: they close the draft, the label goes.
      if (/^hashtags?\b/i.test(meta[0]))
        for (const tag of s.match(/#[\p{L}\p{N}_]+/gu) ?? []) if (!hashtags.includes(tag)) hashtags.push(tag);
      dropped.push(s.replace(/[.!?]+$/, ''));
      return null;
    }
    const link = LINK_LABEL.exec(s);
    if (link) {
      dropped.push(link[0].trim());
      s = s.slice(link[0].length);
      const rest = keepLinks(s);
      return /[\p{L}]{3,}/u.test(rest) && rest.split(/\s+/).length > 2 ? endWith(upperFirst(rest)) : null;
    }
    const label = CONTENT_LABEL.exec(s);
    if (label) {
      dropped.push(label[0].trim());
      s = s.slice(label[0].length);
    }
    const ask = ASK.exec(s);
    if (ask) {
      dropped.push(s.replace(/[.!?]+$/, ''));
      question ??= askedQuestion(s.slice(ask[0].length));
      return null;
    }
    if (FORM.test(s)) {
      dropped.push(s.replace(/[.!?]+$/, ''));
      return null;
    }
    const tell = TELL.exec(s);
    if (tell) {
      dropped.push(tell[0].trim());
      s = s.slice(tell[0].length);
    }
    // The hashtags a sentence ends with close the draft, as in a post: "... Data Testing: #ASB #Hiring".
    s = s.replace(TRAILING_TAGS, (m) => {
      for (const tag of m.trim().split(/\s+/)) if (!hashtags.includes(tag)) hashtags.push(tag);
      return '';
    });
    s = keepLinks(s);
    if (!/[\p{L}\p{N}]/u.test(s)) return null;
    return endWith(upperFirst(s));
  };

  const empty = { sentences: [], heading: null, points: [], news: false };
  const cleaned = cleanBrief(normalizePost(brief).replace(INVISIBLE, ''));
  dropped.push(...cleaned.dropped);
  if (cleaned.topic !== null)
    return {
      sentences: [],
      heading: null,
      points: [],
      links,
      hashtags,
      question,
      news: false,
      topic: cleaned.topic,
      dropped,
    };

  const sentences: string[] = [];
  const points: string[] = [];
  let heading: string | null = null;
  // A brief cut off mid-word ends on what is left of its sentence and "…" (brief-cut.ts).
  for (const line of withoutCutWord(cleaned.text)
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)) {
    if (isBullet(line)) {
      const item = content(unbullet(line));
      if (item && !saidIn(sentences, item)) {
        sentences.push(item);
        points.push(item);
      }
      continue;
    }
    for (const piece of sentencesOfLine(line)) {
      // Clauses joined by a semicolon are said as sentences of their own.
      for (const clause of piece.split(/;\s+/)) {
        const s = content(clause);
        // A sentence said already (a plan's hook put before its brief) is said once.
        if (!s || saidIn(sentences, s)) continue;
        // A sentence ending in a colon introduces what follows: the brief's list.
        if (/:$/.test(s) && heading === null && !points.length) heading = s;
        else if (heading !== null && (points.length || sentences.at(-1) === heading)) points.push(s);
        sentences.push(s);
      }
    }
  }
  // A heading with fewer than two items after it is a sentence like the others.
  if (heading !== null && points.length < 2) {
    heading = null;
    points.length = 0;
  }
  const questions = sentences.filter((s) => /\?["'’”)]*$/u.test(s));
  // The brief's own question to readers, when it ends on one, closes every draft.
  const own = questions.at(-1) === sentences.at(-1) && sentences.length > 1 ? sentences.pop()! : null;
  if (own) {
    const i = points.indexOf(own);
    if (i >= 0) points.splice(i, 1);
  }
  // One bare noun phrase ("Q3 content push") names a topic and tells no fact.
  const only = sentences.length === 1 ? sentences[0]!.replace(/[.!?]+$/, '') : '';
  if (only && !/[,;:]/.test(only) && only.split(/\s+/).length <= LABEL_MAX_WORDS && isNounPhrases(only))
    return {
      ...empty,
      topic: upperFirst(only.replace(TRAILING_GENRE, '')),
      links,
      hashtags,
      question,
      dropped,
    };
  if (!sentences.length) {
    const topic = cleaned.text.replace(/[.!?]+$/, '').trim();
    return {
      sentences: [],
      heading: null,
      points: [],
      links,
      hashtags,
      question,
      news: false,
      topic: topic || brief.trim(),
      dropped,
    };
  }
  return {
    sentences,
    heading,
    points,
    links,
    hashtags,
    question: own ?? question,
    news: opensWithNews(sentences.join('\n')) || LAUNCH.test(sentences.slice(0, 2).join(' ')),
    topic: null,
    dropped,
  };
}

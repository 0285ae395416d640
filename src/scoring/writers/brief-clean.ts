import { upperFirst } from './first-letter.ts';

/**
 * What a brief says, without what it asks. A brief often carries an instruction ("Write a post
 * announcing that our bakery ...") or a label ("Product launch announcement: ...", "data engineer
 * story"); neither belongs in the draft. What is left is the content: its sentences, with a
 * numbered or semicolon list said as sentences of their own, and, for a brief that is only a
 * label, the topic the label names ("data engineer", "remote onboarding").
 */

export interface CleanBrief {
  /** The content, as sentences; empty when the brief was only a label. */
  text: string;
  /** The topic a label-only brief names, said so it fits a sentence; null when there is content. */
  topic: string | null;
  /** What was taken off as instruction or label, as written: no draft may repeat it. */
  dropped: string[];
}

const INSTRUCTION =
  /^(?:please\s+)?(?:(?:write|draft|create|compose|make|prepare|give me|help me write)\s+(?:me\s+|us\s+)?(?:a|an|one|the|some)?\s*(?:short\s+|quick\s+|brief\s+|linkedin\s+|social\s+|twitter\s+|new\s+)*(?:post|thread|update|announcement|caption|story|note)s?\b[\s,]*(?:(?:about|on|for|announcing|explaining|sharing|telling\s+(?:people|readers|everyone|our\s+\w+)|saying|to\s+(?:announce|share|say|tell\s+\w+|explain))\b\s*)?(?:that\s+|how\s+(?=\w))?|(?:announce|share|tell\s+(?:people|everyone|readers)|explain)\s+(?:that\s+)?)/i;
/** Words that name a kind of post, not what it is about. */
const GENRE =
  /\b(?:post|posts|thread|story|stories|announcement|announcements|update|updates|recap|news|tips?|ideas?|thoughts?|notes?|takeaways?|learnings?|lessons?|launch|draft|series|content)\b/gi;
/** A label ("Product launch announcement") is a few words at most; generate-offline.ts reads a topic so too. */
export const LABEL_MAX_WORDS = 6;
/** A role said as a topic reads "working as a data engineer". */
const ROLE = /(?:er|or|ist|ian|ant|ect)$/i;

/** "Product launch announcement" is a label; "Five lessons from two years of Airflow" is a heading worth keeping. */
function isBareLabel(s: string): boolean {
  const words = s.trim().split(/\s+/);
  if (words.length > LABEL_MAX_WORDS || /\d/.test(s)) return false;
  if (words.slice(1).some((w) => /^\p{Lu}/u.test(w) && !/^\p{Lu}\p{Ll}+$/u.test(words[0]!))) return false;
  return new RegExp(GENRE.source, 'i').test(s) && !/\b(?:is|are|was|were|we|i|our|my)\b/i.test(s);
}

/** A numbered or semicolon list after a colon, said as one sentence per item. */
function unlist(text: string): string {
  return text.replace(
    /:\s*((?:\(?\d{1,2}[.)]\s*[^;]+?(?:;|\s(?=\(?\d{1,2}[.)]\s))\s*){2,}.*)$/s,
    (_m, list: string) => {
      const items = list
        .split(/;\s*|\s(?=\(?\d{1,2}[.)]\s)/)
        .map((i) => i.replace(/^\(?\d{1,2}[.)]\s*/, '').trim())
        .filter(Boolean)
        .map((i) => `${upperFirst(i).replace(/[.;,]+$/, '')}.`);
      return `:\n${items.join('\n')}`;
    },
  );
}

/** A topic from a label: genre words out, a role said as "working as a ...". */
function topicOfLabel(label: string): string {
  const words = label
    .replace(GENRE, ' ')
    .replace(/\b(?:for|about|on|from|of)\s*$/i, '')
    .trim();
  const topic = (words || label).replace(/^(?:for|about|on)\s+/i, '').replace(/\s+/g, ' ');
  const last = topic.split(' ').at(-1) ?? '';
  const lower = /^\p{Lu}\p{Ll}/u.test(topic) ? topic[0]!.toLowerCase() + topic.slice(1) : topic;
  return ROLE.test(last) && !/s$/.test(last) ? `working as a ${lower}` : lower;
}

export function cleanBrief(brief: string): CleanBrief {
  const dropped: string[] = [];
  let text = brief.trim().replace(INSTRUCTION, (m) => {
    if (m.trim()) dropped.push(m.trim());
    return '';
  });
  text = text.trim();
  // "Product launch announcement: Foo 2.0 ships ..." keeps what follows the label.
  const colon = text.indexOf(':');
  if (colon > 0 && isBareLabel(text.slice(0, colon)) && /\p{L}/u.test(text.slice(colon + 1))) {
    dropped.push(text.slice(0, colon).trim());
    text = text.slice(colon + 1).trim();
  }
  text = upperFirst(unlist(text));
  const sentence =
    /\b(?:is|are|was|were|am|has|have|had|will|can|did|do|does)\b|\p{Ll}(?:ed|es)\b|[.!?]\s+\p{Lu}/u;
  if (
    isBareLabel(text.replace(/[.!?]+$/, '')) ||
    (!sentence.test(text) && text.split(/\s+/).length <= 4 && !/\d/.test(text))
  )
    return {
      text: '',
      topic: topicOfLabel(text.replace(/[.!?]+$/, '')),
      dropped: [...dropped, text.replace(/[.!?]+$/, '')],
    };
  return { text, topic: null, dropped };
}

/** Whether a theme only names a kind of post ("post series", "announcement"), not a topic. */
export const isGenreTheme = (theme: string): boolean =>
  theme
    .toLowerCase()
    .split(/\s+/)
    .some((w) => new RegExp(`^(?:${GENRE.source})$`, 'i').test(w));

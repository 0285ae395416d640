import { scoreHeuristically } from '../scorer.ts';
import { tokenize } from '../text/phrases.ts';
import { extractFeatures, firstSentence, normalizePost } from '../text/text-features.ts';
import type { VoiceProfile } from '../types.ts';

/**
 * Offline voice distillation: measures the samples (sentence length, person, line rhythm,
 * emoji and hashtag habits, closing questions, signature phrases) and states each habit as
 * a trait or a do-not in fixed wording. The offline generator reads those same phrasings
 * back (see voiceHints), so a distilled voice conditions offline generation too.
 */

export const VOICE_PHRASES = {
  noEmoji: 'Do not use emoji.',
  noHashtags: 'Do not add hashtags.',
  shortSentences: 'Short, punchy sentences',
  firstPerson: 'Writes in the first person singular (I, my)',
  team: 'Speaks as a team (we, our)',
  reader: 'Talks to the reader directly (you, your)',
  oneIdeaPerLine: 'One idea per line, with white space between lines',
  closingQuestion: 'Closes with a question to the reader',
} as const;

const STOP = new Set(
  'a an and are as at be but by for from has have i if in is it its my of on or our so that the this to was we with you your'.split(
    ' ',
  ),
);

/** 2-6 word phrases used in at least two samples, longest and most shared first. */
function signaturePhrases(samples: string[]): string[] {
  const seen = new Map<string, Set<number>>();
  samples.forEach((sample, i) => {
    const words = tokenize(sample).filter((t) => t !== '?' && t !== '"');
    for (let n = 2; n <= 6; n++) {
      for (let j = 0; j + n <= words.length; j++) {
        const gram = words.slice(j, j + n);
        if (gram.every((w) => STOP.has(w)) || STOP.has(gram[0]!) || STOP.has(gram[n - 1]!)) continue;
        const key = gram.join(' ');
        seen.set(key, (seen.get(key) ?? new Set()).add(i));
      }
    }
  });
  const shared = [...seen].filter(([, s]) => s.size >= 2);
  shared.sort((a, b) => b[1].size - a[1].size || b[0].split(' ').length - a[0].split(' ').length);
  const picked: string[] = [];
  for (const [phrase] of shared) {
    if (picked.some((p) => p.includes(phrase) || phrase.includes(p))) continue;
    picked.push(phrase);
    if (picked.length === 3) break;
  }
  return picked;
}

const avg = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 0);

export function distillVoiceOffline(rawSamples: string[]): VoiceProfile {
  const samples = rawSamples.map(normalizePost).filter(Boolean);
  const feats = samples.map(extractFeatures);
  const traits: string[] = [];
  const doNot: string[] = [];

  const words = avg(feats.map((f) => f.avgSentenceWords));
  const rounded = Math.max(1, Math.round(words));
  if (words < 12) traits.push(`${VOICE_PHRASES.shortSentences} (about ${rounded} words each)`);
  else if (words < 20) traits.push(`Medium-length sentences (about ${rounded} words each)`);
  else traits.push(`Long, flowing sentences (about ${rounded} words each)`);

  const [first, team, reader] = [
    feats.reduce((s, f) => s + f.firstPerson, 0),
    feats.reduce((s, f) => s + f.firstPersonPlural, 0),
    feats.reduce((s, f) => s + f.secondPerson, 0),
  ];
  if (first >= team && first >= reader && first > 0) traits.push(VOICE_PHRASES.firstPerson);
  else if (team >= reader && team > 0) traits.push(VOICE_PHRASES.team);
  else if (reader > 0) traits.push(VOICE_PHRASES.reader);

  const broken = feats.filter((f) => f.hasLineBreaks).length;
  const lineLength = avg(feats.map((f) => f.length / Math.max(1, f.lines)));
  if (broken * 2 >= feats.length && lineLength <= 120) traits.push(VOICE_PHRASES.oneIdeaPerLine);
  else traits.push('Writes in compact paragraphs');

  const emoji = avg(feats.map((f) => f.emoji));
  if (emoji === 0) doNot.push(VOICE_PHRASES.noEmoji);
  else
    traits.push(
      `Uses emoji ${emoji <= 2 ? 'sparingly' : 'freely'} (about ${Math.round(emoji) || 1} per post)`,
    );

  const hashtags = avg(feats.map((f) => f.hashtags));
  if (hashtags === 0) doNot.push(VOICE_PHRASES.noHashtags);
  else
    traits.push(`Ends with about ${Math.round(hashtags) || 1} hashtag${Math.round(hashtags) > 1 ? 's' : ''}`);

  if (feats.filter((f) => f.endsWithQuestion).length * 2 >= feats.length)
    traits.push(VOICE_PHRASES.closingQuestion);
  traits.push(`Posts run about ${Math.round(avg(feats.map((f) => f.length)) / 10) * 10} characters`);

  const signature = signaturePhrases(samples);
  if (signature.length) traits.push(`Signature phrases: ${signature.map((p) => `"${p}"`).join(', ')}`);

  if (feats.every((f) => f.aiTells === 0))
    doNot.push('Avoid stock phrases such as "delve" or "in today\'s fast-paced world".');
  if (feats.every((f) => f.bait === 0)) doNot.push('No engagement bait ("comment YES", "tag a friend").');
  if (feats.every((f) => f.links === 0)) doNot.push('Keep links out of the post body.');

  // Exemplars: the opening lines of the strongest samples, verbatim.
  const exemplars = samples
    .map((s, i) => ({
      hook: firstSentence(feats[i]!.firstLine),
      overall: scoreHeuristically({ post: s }).overall,
      i,
    }))
    .sort((a, b) => b.overall - a.overall || a.i - b.i)
    .map((x) => x.hook.slice(0, 280))
    .filter((h, i, all) => h.length > 0 && all.indexOf(h) === i)
    .slice(0, 3);
  return { traits, doNot, exemplars };
}

/** What a voice asks of the offline generator, read from the fixed phrasings above. */
export function voiceHints(voice: { traits: string[]; doNot: string[] } | null) {
  const all = [...(voice?.traits ?? []), ...(voice?.doNot ?? [])].join('\n').toLowerCase();
  return {
    noEmoji: /do not use emoji|no emoji/.test(all),
    noHashtags: /do not add hashtags|no hashtags/.test(all),
    shortSentences: /short, punchy|short sentences/.test(all),
    firstPerson: /first person/.test(all),
    oneIdeaPerLine: /one idea per line/.test(all),
  };
}

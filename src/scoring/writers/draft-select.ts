import { MIN_SPECIFICS_KEPT } from './draft-checks.ts';

/**
 * Which of the brief's sentences each offline candidate tells, so candidates differ in what
 * they say as well as in shape, once the brief is long (20 words of detail or more; a short one is
 * told whole in each): the first candidate tells every sentence; the second tells the
 * first half of the brief and the third the second half, each with the other half's sentences
 * that hold the numbers and names it needs to keep 80% of them. On a long brief three drafts that each carry the whole
 * brief share most of their words (0.88 on real briefs) whatever their form; a writer gets the
 * full telling and two tighter takes instead. A sentence that points back ("It", "This", "But")
 * stays with the one before it, so no kept sentence points at one left out; a list under a
 * heading ("Five lessons ...:") keeps every item in every candidate.
 */

/** Words of detail past which candidates that each carried all of them would share most words. */
const LONG_DETAILS = 20;

/** Sentences that lean on the one before them. */
const POINTS_BACK =
  /^(?:this|that|these|those|it|its|it's|it’s|they|them|their|he|she|his|her|him|but|and|so|or|because|which|who|also|then|yes|no|same|here|there|such|both|another|still|even|again|instead|otherwise|however|yet|plus|now|in fact|as a result|for example|for instance|in other words|that said|on top of that|after that|even so|in short)\b/i;

/** Sentences grouped with the ones that point back at them. */
function units(sentences: string[]): string[][] {
  const out: string[][] = [];
  for (const s of sentences) {
    const last = out.at(-1);
    if (last && POINTS_BACK.test(s.trim())) last.push(s);
    else out.push([s]);
  }
  return out;
}

const holds = (s: string, specifics: string[]) =>
  specifics.some((x) => s.toLowerCase().includes(x.toLowerCase()));

const shareKept = (text: string, specifics: string[]) => {
  const t = text.toLowerCase();
  return specifics.length
    ? specifics.filter((x) => t.includes(x.toLowerCase())).length / specifics.length
    : 1;
};

/**
 * What candidate `k` (0, 1, 2) tells: all the details for the first; the first half of the brief
 * for the second and the second half for the third, each with the sentences holding the facts
 * it needs to keep MIN_SPECIFICS_KEPT of the brief's numbers and names (most facts first). The
 * third also leaves out the topic sentence (`topic`, which the others say) when its facts are
 * not needed, so it opens on its own hook and the second half.
 */
export function detailsFor(
  details: string[],
  specifics: string[],
  k: number,
  topic: string,
): { details: string[]; showTopic: boolean } {
  const all = units(details);
  // Halves by words, not by sentences: one long sentence can be half the brief.
  const words = all.map((u) => u.join(' ').split(/\s+/).length);
  const total = words.reduce((a, b) => a + b, 0);
  // A short brief is told whole in every candidate: their framing alone sets them apart.
  if (k === 0 || all.length < 2 || total < LONG_DETAILS) return { details, showTopic: true };
  let half = 0;
  for (let sum = 0; half < all.length - 1 && sum + words[half]! / 2 < total / 2; half++) sum += words[half]!;
  half = Math.min(Math.max(half, 1), all.length - 1);
  const pick = (withTopic: boolean) => {
    const chosen = new Set(k === 1 ? all.slice(0, half) : all.slice(half));
    const text = () => [withTopic ? topic : '', ...all.filter((u) => chosen.has(u)).flat()].join('\n');
    const facts = all
      .filter((u) => !chosen.has(u))
      .map((u) => ({ u, n: specifics.filter((x) => holds(u.join(' '), [x])).length }))
      .filter((x) => x.n > 0)
      .sort((a, b) => b.n - a.n);
    for (const { u } of facts) {
      if (shareKept(text(), specifics) >= MIN_SPECIFICS_KEPT) break;
      chosen.add(u);
    }
    return { details: all.filter((u) => chosen.has(u)).flat(), kept: shareKept(text(), specifics) };
  };
  if (k === 2) {
    const alone = pick(false);
    if (alone.kept >= MIN_SPECIFICS_KEPT && alone.details.length < details.length)
      return { details: alone.details, showTopic: false };
  }
  return { details: pick(true).details, showTopic: true };
}

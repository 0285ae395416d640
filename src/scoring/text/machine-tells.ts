import type { TextFeatures } from './text-features.ts';

/**
 * The AI tells Postkit knows, named as a writer reads them: the stock phrases of the lexicon,
 * a stack of three or more em dashes, and the "not X but Y" cadence twice or more. One list for
 * every reader of it: validate's `ai_tells` warning and the checks on a model's drafts
 * (scoring/model/draft-gate.ts), so a draft the gate lets through never draws that warning.
 */
export function machineTells(f: Pick<TextFeatures, 'phrases' | 'emDashes' | 'notXButY'>): string[] {
  const tells = [...f.phrases.aiTells];
  if (f.emDashes >= 3) tells.push('em-dash stack');
  if (f.notXButY >= 2) tells.push('"not X but Y" cadence');
  return tells;
}

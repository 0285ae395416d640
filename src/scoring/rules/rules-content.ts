import type { HookArchetype } from '../../domain/enums.ts';
import { ARCHETYPE_POINTS } from './hook.ts';
import { hit, type RuleContext, type RuleHit } from './rule-kit.ts';

/** How the hook signal names each archetype, and how its detail opens (plain English, no "a other"). */
const HOOK_LABELS: Record<HookArchetype, string> = {
  story: 'Story hook',
  statement: 'Statement hook',
  'pure-number': 'Number hook',
  contrarian: 'Contrarian hook',
  question: 'Question hook',
  other: 'No clear hook',
};
const HOOK_OPENINGS: Record<HookArchetype, string> = {
  story: 'The post opens on a story',
  statement: 'The post opens with a plain statement',
  'pure-number': 'The post opens with a number',
  contrarian: 'The post opens against a common view',
  question: 'The post opens with a question',
  other: 'The opening follows no clear hook pattern',
};

/** Hook and structure rules. */

export function hookRules(ctx: RuleContext, hits: RuleHit[]) {
  const { f, rubric, archetype } = ctx;
  const hookChars = f.hook.length;
  // A feed that shows the whole post has no fold to land before (the platform's profile says).
  if (!rubric.folds) {
    // No fold rule.
  } else if (hookChars > 0 && hookChars <= rubric.tightHookChars) {
    hits.push(
      hit(
        'hook.fold',
        'hook',
        4,
        'Hook lands before the fold',
        `The opening sentence is ${hookChars} characters, so it is read whole before "see more".`,
        2,
      ),
    );
  } else if (hookChars > rubric.foldChars) {
    hits.push(
      hit(
        'hook.fold',
        'hook',
        -12,
        'Hook cut by the fold',
        `The opening sentence runs ${hookChars} characters, past the ~${rubric.foldChars}-character "see more" fold; readers decide before it lands.`,
        3,
      ),
    );
  }
  const points = ARCHETYPE_POINTS[archetype];
  // The archetype is the claim checks' (hook.ts), so its name is true of the opening.
  const told = { label: HOOK_LABELS[archetype], opening: HOOK_OPENINGS[archetype] };
  const quoted = `${f.hook.slice(0, 80)}${f.hook.length > 80 ? '…' : ''}`;
  hits.push(
    hit(
      'hook.archetype',
      'hook',
      points,
      told.label,
      // A quoted sentence that ends itself takes no second stop ("... in 6 weeks.", not ".".).
      `${told.opening}: "${quoted}"${/[.!?…]$/u.test(quoted) ? '' : '.'}`,
    ),
  );
  if (f.genericOpener) {
    hits.push(
      hit(
        'hook.generic_opener',
        'hook',
        -10,
        'Generic opener',
        'The first line spends the hook on a stock phrase; open with the claim, the number or the moment.',
        3,
      ),
    );
  }
}

export function structureRules(ctx: RuleContext, hits: RuleHit[]) {
  const { f, rubric } = ctx;
  if (f.length > 500 && !f.hasLineBreaks) {
    hits.push(
      hit(
        'structure.wall_of_text',
        'structure',
        -15,
        'Wall of text',
        `${f.length} characters with no line break; short paragraphs with white space keep readers ${rubric.folds ? 'past the fold' : 'reading'}.`,
        3,
      ),
    );
  } else if (f.hasLineBreaks && f.longestParagraph > 400) {
    hits.push(
      hit(
        'structure.long_paragraph',
        'structure',
        -8,
        'A dense paragraph',
        `One paragraph runs ${f.longestParagraph} characters; break it into two or three.`,
        2,
      ),
    );
  } else if (f.hasLineBreaks && f.paragraphs >= 3 && f.longestParagraph <= 300) {
    hits.push(
      hit(
        'structure.white_space',
        'structure',
        10,
        'Readable rhythm',
        `${f.paragraphs} short paragraphs separated by white space.`,
        2,
      ),
    );
  }
  const [lo, hi] = rubric.sentenceBand;
  if (f.sentences >= lo && f.sentences <= hi) {
    hits.push(
      hit(
        'structure.sentence_band',
        'structure',
        8,
        f.sentences === 1 ? '1 sentence' : `${f.sentences} sentences`,
        `Posts of ${lo}-${hi} sentences earn about 1.64x their author's median against 0.75x for under 5 (31,020 posts).`,
        2,
      ),
    );
  } else if (rubric.fewSentencesBelow !== null && f.sentences < rubric.fewSentencesBelow) {
    hits.push(
      hit(
        'structure.few_sentences',
        'structure',
        -6,
        'Very few sentences',
        `Posts under ${rubric.fewSentencesBelow} sentences earn about 0.75x their author's median (31,020 posts); say a little more: what happened, what it showed, what you would do next.`,
        2,
      ),
    );
  }
  if (f.avgSentenceWords > 28) {
    hits.push(
      hit(
        'structure.long_sentences',
        'structure',
        -8,
        'Long sentences',
        `Sentences average ${Math.round(f.avgSentenceWords)} words; under 20 reads faster on a phone.`,
        2,
      ),
    );
  }
  if (f.listLines >= 3) {
    hits.push(hit('structure.list', 'structure', 4, 'Scannable list', `${f.listLines} list lines.`, 1));
  }
}

import type { HookArchetype } from '../../domain/enums.ts';
import { personLength } from '../text/person-length.ts';
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
/** What to do about each kind of opening. */
const HOOK_ACTS: Record<HookArchetype, string> = {
  story: 'keep the moment up front',
  statement: 'make it as concrete as you can, with a number, a name or a result',
  'pure-number': 'make sure the number is the news',
  contrarian: 'back the claim with a specific case in the next lines',
  question: 'open with the answer, or with the moment that raised the question',
  other: 'open with the claim, the number or the moment',
};

/** Hook and structure rules. */

export function hookRules(ctx: RuleContext, hits: RuleHit[]) {
  const { f, rubric, archetype } = ctx;
  // Counted as the writer counts the characters they see.
  const hookChars = personLength(f.hook);
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
        {
          finding: `The opening sentence is ${hookChars} characters, so readers see all of it before "see more"`,
          act: 'keep the point in it',
        },
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
        {
          finding: `The opening sentence runs ${hookChars} characters, past the ~${rubric.foldChars}-character "see more" fold, and readers decide before it lands`,
          act: `put the point in the first ${rubric.tightHookChars} characters`,
        },
        3,
      ),
    );
  }
  const points = ARCHETYPE_POINTS[archetype];
  // The archetype is the claim checks' (hook.ts), so its name is true of the opening.
  const quoted = `${f.hook.slice(0, 80)}${f.hook.length > 80 ? '…' : ''}`;
  hits.push(
    hit('hook.archetype', 'hook', points, HOOK_LABELS[archetype], {
      // A quoted sentence that ends itself is followed by the next sentence (rule-kit `sentenceOf`).
      finding: `${HOOK_OPENINGS[archetype]}: "${quoted}"`,
      act: HOOK_ACTS[archetype],
    }),
  );
  if (f.genericOpener) {
    hits.push(
      hit(
        'hook.generic_opener',
        'hook',
        -10,
        'Generic opener',
        {
          finding: 'The first line spends the hook on a stock phrase',
          act: 'open with the claim, the number or the moment',
        },
        3,
      ),
    );
  }
}

export function structureRules(ctx: RuleContext, hits: RuleHit[]) {
  const { f, rubric } = ctx;
  if (f.chars > 500 && !f.hasLineBreaks) {
    hits.push(
      hit(
        'structure.wall_of_text',
        'structure',
        -15,
        'Wall of text',
        {
          finding: `The post runs ${f.chars} characters with no line break`,
          act: `break it into short paragraphs with white space, which keep readers ${rubric.folds ? 'past the fold' : 'reading'}`,
        },
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
        { finding: `One paragraph runs ${f.longestParagraph} characters`, act: 'break it into two or three' },
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
        {
          finding: `${f.paragraphs} short paragraphs are separated by white space`,
          act: 'keep that rhythm',
        },
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
        {
          // The figures are measured on the one profile that sets fewSentencesBelow (31,020 posts); a profile without them has a stated band.
          finding:
            rubric.fewSentencesBelow === null
              ? `The post has ${f.sentences === 1 ? 'one sentence' : `${f.sentences} sentences`}, within the ${lo}-${hi} range set for ${rubric.displayName}`
              : `Posts of ${lo}-${hi} sentences earn about 1.64x their author's median against 0.75x for under ${rubric.fewSentencesBelow} (31,020 posts)`,
          act: 'keep it within that range',
        },
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
        {
          finding: `Posts under ${rubric.fewSentencesBelow} sentences earn about 0.75x their author's median (31,020 posts)`,
          act: 'add a sentence on what it showed and one on what you would do next',
        },
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
        {
          finding: `Sentences average ${Math.round(f.avgSentenceWords)} words, and sentences under 20 words read faster on a phone`,
          act: 'split the longest ones',
        },
        2,
      ),
    );
  }
  if (f.listLines >= 3) {
    hits.push(
      hit(
        'structure.list',
        'structure',
        4,
        'Scannable list',
        { finding: `${f.listLines} list lines make the post easy to scan`, act: 'keep the list short' },
        1,
      ),
    );
  }
}

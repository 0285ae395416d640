import { describe, expect, it } from 'vitest';
import { MediaKind } from '../../src/domain/enums.ts';
import { runRules } from '../../src/scoring/rules/rules.ts';
import { scoreHeuristically } from '../../src/scoring/scorer.ts';

/** What a writer reads in signals and the verdict is English, whatever fired. */
const POST = `We cut our cloud bill by 38% in one quarter.

I expected the savings to come from reserved instances. They did not. Most of it came from turning off staging overnight and deleting snapshots nobody had looked at since 2021.

What is the one line item you have never questioned?`;

describe('signal and verdict wording', () => {
  it('one number is "a number", never "1 number make"', () => {
    const result = scoreHeuristically({
      post: 'Shipped the release on time this week, after a long month of small fixes and a lot of testing with 3 people.',
    });
    // The rule's own sentence, as its concept's signal says it when it speaks (runRules: whether
    // it speaks is the model's net for the concept).
    void result;
    const hitOf = (post: string) => runRules({ post }).hits.find((h) => h.rule === 'specificity.numbers');
    expect(
      hitOf(
        'Shipped the release on time this week, after a long month of small fixes and a lot of testing with 3 people.',
      )?.detail,
    ).toBe('A number lets readers check the claim; keep it.');
    const two = hitOf(POST);
    expect(two?.detail).toMatch(/^\d+ numbers let readers check the claims; keep them\.$/);
  });

  it.each(MediaKind.options)('a %s post names its format in words a reader uses', (media) => {
    const result = scoreHeuristically({ post: POST, media });
    const text = [result.verdict, ...result.signals.flatMap((s) => [s.label, s.detail])].join('\n');
    expect(text).not.toMatch(new RegExp(`${media} format|none format`, 'i'));
    const formats = result.signals.filter(
      (s) => s.rule === `media.${media}` || s.rule === 'format.multiplier',
    );
    expect(formats.length).toBeLessThanOrEqual(1);
    const format = formats[0];
    if (format) expect(format.detail).toMatch(/than their posts with text only|takes the published figure/);
  });

  it('text only is the baseline: a text post is never told its format is what is wrong with it', () => {
    const result = scoreHeuristically({ post: POST, media: 'none' });
    expect(
      result.signals.find((s) => s.rule === 'media.none' || s.rule === 'format.multiplier'),
    ).toBeUndefined();
    expect(result.verdict).not.toMatch(/text-only|none format/);
  });
});

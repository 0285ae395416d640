import { countedLength, countingWords } from '../../../packages/client/src/text-length.ts';
import type { Dimension } from '../../domain/enums.ts';
import { FORMAT_LABELS } from './format.ts';
import { hit, type RuleContext, type RuleHit } from './rule-kit.ts';

/**
 * What the over-limit sentence counts in: characters, and where the platform counts UTF-16
 * units and a person would count fewer, that an emoji counts as two there; a platform that
 * weighs links says so (`countingWords`).
 */
function limitUnits(
  rubric: RuleContext['rubric'],
  counted: number,
  chars: number,
): { unit: string; where: string } {
  if (counted === chars) return { unit: 'characters', where: '' };
  if (rubric.counting.urlWeight !== null) return { unit: countingWords(rubric.counting), where: '' };
  return { unit: 'characters', where: ', where an emoji counts as two,' };
}

/** Algorithm-fit rules: length band, links, hashtags, format, mentions, bait, timing. */

/** What to do about a format: keep one that helps; post as text, or the link in a comment, otherwise. */
export const formatAct = (media: string, effect: number): string =>
  effect >= 0
    ? 'keep the format'
    : media === 'link'
      ? 'put the link in the first comment instead'
      : 'try the post as text only';

const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

export function algorithmRules(
  ctx: RuleContext,
  hits: RuleHit[],
  capAt: (dimension: Dimension, max: number, rule: string) => void,
) {
  const { f, rubric, format } = ctx;
  const [low, high] = rubric.idealLength;

  const { counted } = ctx;
  if (counted > rubric.maxLength) {
    const over = counted - rubric.maxLength;
    // Whether the platform's unit counts this text otherwise than a person does, on one text.
    const units = limitUnits(rubric, countedLength(rubric.counting, f.text), f.chars);
    hits.push(
      hit(
        'length.over_limit',
        'algorithmFit',
        -10,
        'Over the length limit',
        {
          finding: `At ${counted.toLocaleString('en-US')} ${units.unit} the post is over ${rubric.displayName}'s ${rubric.maxLength.toLocaleString('en-US')}-character limit${units.where} and cannot be published as it is`,
          act: `cut ${over.toLocaleString('en-US')} ${over === 1 ? 'character' : 'characters'}${rubric.threads ? ' or make it a thread' : ''}`,
        },
        5,
      ),
    );
    capAt('algorithmFit', 30, 'length.over_limit');
  }
  if (f.chars < rubric.thinLength) {
    const veryThin = f.chars < rubric.thinLength / 2;
    hits.push(
      hit('length.thin', 'algorithmFit', veryThin ? -22 : -14, 'Too short to hold attention', {
        finding: `At ${f.chars} characters there is little to read, so the post earns little dwell time; posts of ${low}-${high} characters do best`,
        act: 'say what happened and what it showed, with a figure or an example',
      }),
    );
  } else if (f.chars < low) {
    hits.push(
      hit(
        'length.short',
        'algorithmFit',
        -4,
        'Shorter than the best band',
        {
          finding: `The post is ${f.chars} characters long; posts of ${low}-${high} characters do best on ${rubric.displayName}`,
          act: `add a detail or an example to bring it to ${low} characters or more`,
        },
        1,
      ),
    );
  } else if (f.chars <= high) {
    hits.push(
      hit(
        'length.sweet_spot',
        'algorithmFit',
        10,
        'Length in the sweet spot',
        {
          finding: `At ${f.chars} characters the post sits in the ${low}-${high} band that earns the most reach (van der Blom; AuthoredUp 2025)`,
          act: 'keep it within that band',
        },
        2,
      ),
    );
  } else if (f.chars <= rubric.maxLength) {
    // Each `decayStep` characters beyond the band costs ~10% reach (van der Blom; AuthoredUp 2025).
    const steps = Math.ceil((f.chars - high) / rubric.decayStep);
    hits.push(
      hit(
        'length.long',
        'algorithmFit',
        -Math.min(30, steps * rubric.decayPoints),
        'Longer than the best band',
        {
          finding: `The post runs ${f.chars - high} characters past ${high}; every ${rubric.decayStep} characters past the band cost about 10% of the reach`,
          act: 'cut what does not carry the point',
        },
      ),
    );
  } else {
    // Past the limit in characters, though within it as the platform counts links.
    hits.push(
      hit(
        'length.long',
        'algorithmFit',
        -30,
        'Far too long',
        {
          finding: `At ${f.chars} characters the post runs far past the ${low}-${high} band that does best on ${rubric.displayName}`,
          act: 'cut what does not carry the point',
        },
        4,
      ),
    );
  }

  if (ctx.hasLink) {
    hits.push(
      hit(
        'link.external',
        'algorithmFit',
        -6,
        'External link in the body',
        {
          finding: 'Posts with an external link get about 26% less reach (Ordinal, 900k posts)',
          act: 'put the link in the first comment',
        },
        4,
      ),
    );
    capAt('algorithmFit', rubric.linkCap, 'link.external');
  }
  if (ctx.hashtags >= rubric.hashtagCapFrom) {
    hits.push(
      hit(
        'hashtags.excess',
        'algorithmFit',
        -4,
        `${ctx.hashtags} hashtags`,
        {
          finding: `${rubric.hashtagCapFrom} or more hashtags read as spam and cap algorithm fit`,
          act: `keep ${rubric.hashtagCapFrom > 3 ? 'two or three' : 'one or two'} relevant ones`,
        },
        2,
      ),
    );
    capAt('algorithmFit', rubric.hashtagCap, 'hashtags.excess');
  }

  // Format points are relative to plain text, the format every post can fall back to.
  const relative = Math.round(20 * Math.log2(format.multiplier / 1.17));
  if (Math.abs(relative) >= 2) {
    hits.push(
      hit(
        'format.multiplier',
        'algorithmFit',
        relative,
        `${FORMAT_LABELS[format.media]} (${format.multiplier}x reach)`,
        {
          finding: format.note.replace(/\.$/, ''),
          act: formatAct(format.media, relative),
        },
      ),
    );
  }

  if (f.mentions > 5) {
    hits.push(
      hit(
        'mentions.excess',
        'algorithmFit',
        -6,
        'Too many tags',
        {
          finding: `${f.mentions} tagged people read as tag-bait`,
          act: 'tag only those who are part of the story',
        },
        2,
      ),
    );
  } else if (f.mentions > 0) {
    hits.push(
      hit(
        'mentions.tagged',
        'algorithmFit',
        3,
        'Relevant people tagged',
        {
          finding: 'Tagging the people in the story notifies them and extends the first wave of distribution',
          act: 'keep the tags to the people the post is about',
        },
        1,
      ),
    );
  }

  if (f.bait > 0) {
    hits.push(
      hit(
        'engagement.bait',
        'algorithmFit',
        -12,
        'Engagement bait',
        {
          finding: 'The feed demotes posts that ask for likes, comments or shares',
          act: 'ask a real question instead',
        },
        4,
      ),
    );
  }

  timingRules(ctx, hits);
}

/** Day and hour effects are within +-20% and noisy (SCORING.md), so these rules are small. */
function timingRules({ input }: RuleContext, hits: RuleHit[]) {
  const day = input.dayOfWeek;
  if (day !== undefined) {
    if (day >= 2 && day <= 4) {
      hits.push(
        hit(
          'timing.midweek',
          'algorithmFit',
          3,
          'Midweek slot',
          { finding: `${DAY_NAMES[day]} is a busy feed day`, act: 'keep the day' },
          1,
        ),
      );
    } else if (day === 0 || day === 6) {
      hits.push(
        hit(
          'timing.weekend',
          'algorithmFit',
          -4,
          'Weekend slot',
          {
            finding: `Professional posts meet a quieter feed on ${DAY_NAMES[day]}; day effects are within about 20%`,
            act: 'move it to a weekday if it can wait',
          },
          1,
        ),
      );
    }
  }
  const hour = input.hourLocal;
  if (hour !== undefined) {
    if ((hour >= 7 && hour <= 9) || hour === 12 || hour === 17) {
      hits.push(
        hit(
          'timing.peak_hour',
          'algorithmFit',
          2,
          'Peak hour',
          {
            finding: `Many people read the feed at ${hour}:00, on the way to work or at lunch`,
            act: 'keep the hour',
          },
          1,
        ),
      );
    } else if (hour >= 22 || hour <= 5) {
      hits.push(
        hit(
          'timing.off_hours',
          'algorithmFit',
          -4,
          'Off-hours slot',
          {
            finding: `At ${hour}:00 local time most readers are asleep, so the first hour of distribution happens in an empty feed`,
            act: 'schedule it between 7:00 and 21:00',
          },
          1,
        ),
      );
    }
  }
}

import { countedLength, countingWords } from '../../../packages/client/src/text-length.ts';
import type { Dimension } from '../../domain/enums.ts';
import { FORMAT_LABELS } from './format.ts';
import { hit, type RuleContext, type RuleHit } from './rule-kit.ts';

/** Algorithm-fit rules: length band, links, hashtags, format, mentions, bait, timing. */

const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

export function algorithmRules(
  ctx: RuleContext,
  hits: RuleHit[],
  capAt: (dimension: Dimension, max: number, rule: string) => void,
) {
  const { f, rubric, format } = ctx;
  const [low, high] = rubric.idealLength;

  // Counted the platform's way (a URL may count a fixed weight), as publishing refuses it.
  const counted = countedLength(rubric.counting, f.text);
  if (counted > rubric.maxLength) {
    const over = counted - rubric.maxLength;
    hits.push(
      hit(
        'length.over_limit',
        'algorithmFit',
        -10,
        'Over the length limit',
        `At ${counted.toLocaleString('en-US')} ${counted === f.length ? 'characters' : countingWords(rubric.counting)} the post is over ${rubric.displayName}'s ${rubric.maxLength.toLocaleString('en-US')}-character limit and cannot be published as it is; cut ${over.toLocaleString('en-US')} ${over === 1 ? 'character' : 'characters'}${rubric.threads ? ' or make it a thread' : ''}.`,
        5,
      ),
    );
    capAt('algorithmFit', 30, 'length.over_limit');
  }
  if (f.length < rubric.thinLength) {
    const veryThin = f.length < rubric.thinLength / 2;
    hits.push(
      hit(
        'length.thin',
        'algorithmFit',
        veryThin ? -22 : -14,
        'Too short to hold attention',
        `At ${f.length} characters there is little to read, so the post earns little dwell time; posts of ${low}-${high} characters do best.`,
      ),
    );
  } else if (f.length < low) {
    hits.push(
      hit(
        'length.short',
        'algorithmFit',
        -4,
        'Shorter than the best band',
        `${f.length} characters; posts of ${low}-${high} characters do best on ${rubric.displayName}.`,
        1,
      ),
    );
  } else if (f.length <= high) {
    hits.push(
      hit(
        'length.sweet_spot',
        'algorithmFit',
        10,
        'Length in the sweet spot',
        `At ${f.length} characters the post sits in the ${low}-${high} band that earns the most reach (van der Blom; AuthoredUp 2025).`,
        2,
      ),
    );
  } else if (f.length <= rubric.maxLength) {
    // Each `decayStep` characters beyond the band costs ~10% reach (van der Blom; AuthoredUp 2025).
    const steps = Math.ceil((f.length - high) / rubric.decayStep);
    hits.push(
      hit(
        'length.long',
        'algorithmFit',
        -Math.min(30, steps * rubric.decayPoints),
        'Longer than the best band',
        `${f.length - high} characters past ${high}; each ${rubric.decayStep} characters beyond the band costs about 10% reach.`,
      ),
    );
  } else {
    hits.push(hit('length.long', 'algorithmFit', -30, 'Far too long', `${f.length} characters.`, 4));
  }

  if (ctx.hasLink) {
    hits.push(
      hit(
        'link.external',
        'algorithmFit',
        -6,
        'External link in the body',
        'Posts with an external link get about 26% less reach (Ordinal, 900k posts); put the link in the first comment.',
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
        `${rubric.hashtagCapFrom} or more hashtags read as spam and cap algorithm fit; keep ${rubric.hashtagCapFrom > 3 ? 'two or three' : 'one or two'} relevant ones.`,
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
        format.note,
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
        `${f.mentions} tagged people reads as tag-bait; tag only those who are part of the story.`,
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
        'Tagging the people in the story notifies them and extends the first wave of distribution.',
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
        'The feed demotes posts that ask for likes, comments or shares; ask a real question instead.',
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
        hit('timing.midweek', 'algorithmFit', 3, 'Midweek slot', `${DAY_NAMES[day]} is a busy feed day.`, 1),
      );
    } else if (day === 0 || day === 6) {
      hits.push(
        hit(
          'timing.weekend',
          'algorithmFit',
          -4,
          'Weekend slot',
          `${DAY_NAMES[day]} feeds are quieter for professional content; day effects are within about 20%.`,
          1,
        ),
      );
    }
  }
  const hour = input.hourLocal;
  if (hour !== undefined) {
    if ((hour >= 7 && hour <= 9) || hour === 12 || hour === 17) {
      hits.push(
        hit('timing.peak_hour', 'algorithmFit', 2, 'Peak hour', `${hour}:00 is a commute or lunch peak.`, 1),
      );
    } else if (hour >= 22 || hour <= 5) {
      hits.push(
        hit(
          'timing.off_hours',
          'algorithmFit',
          -4,
          'Off-hours slot',
          `${hour}:00 local is outside waking feed hours; the first hour of distribution happens in an empty feed.`,
          1,
        ),
      );
    }
  }
}

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { partIssues } from '../../src/features/validate/validate-parts.ts';
import { hasThreads as apiHasThreads, PROFILES, textLimitFor } from '../../src/platforms/profiles.ts';
import { engineNotice, OFFLINE_NOTE } from '../../src/scoring/engine-notice.ts';
import { engineLine, engineOfMeta } from '../../web/src/lib/engine.ts';
import {
  countPart,
  hasThreads,
  issuesOf,
  maxThreadParts,
  type PostParts,
  partName,
  partsSummary,
  partsToSend,
  partUrl,
  publishedParts,
  publishedSentence,
  splitAtParagraphs,
  threadFrom,
  variantFieldName,
} from '../../web/src/lib/parts.ts';
import { FACTS } from '../helpers/platform-facts.ts';

const factsOf = (platform: string) =>
  Object.hasOwn(FACTS, platform) ? FACTS[platform as keyof typeof FACTS] : undefined;

/**
 * The console's logic for threads, first comments and the engine notice (no browser): the
 * live counters agree with the API's own counting, issues land under the part they name, and
 * the published parts read back with their ids and links.
 */

/** Text built from pieces that stress the count: URLs (any case), emoji, accents, newlines. */
const fragments = fc.constantFrom(
  'word',
  ' ',
  '\n',
  'https://example.com/a/very/long/path?q=1',
  'HTTPS://EXAMPLE.COM/Shout',
  'http://x.y',
  'see:https://t.co/x',
  '🚀',
  '👩‍💻',
  'é',
  'e\u0301',
  '#tag',
);
const texts = fc.array(fragments, { maxLength: 120 }).map((parts) => parts.join(''));

describe('part counters agree with the API', () => {
  it('counts every kind of part on both platforms exactly as the API counts it', () => {
    fc.assert(
      fc.property(texts, (text) => {
        for (const platform of ['platformA', 'platformB']) {
          for (const kind of ['post', 'reply', 'comment'] as const) {
            const api = textLimitFor(platform, kind);
            const mine = countPart(factsOf(platform), kind, text);
            if (!api) {
              expect(mine).toBeNull();
              continue;
            }
            expect(mine, `${platform} ${kind} ${JSON.stringify(text)}`).toMatchObject({
              length: api.length(text),
              max: api.max,
              over: Math.max(0, api.length(text) - api.max),
            });
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('counts a URL as 23 on platformB, whatever its length or case, and says how it counts', () => {
    const long = `Read https://example.com/${'x'.repeat(200)} now`;
    expect(countPart(factsOf('platformB'), 'reply', long)).toEqual({
      length: 5 + 23 + 4,
      max: 280,
      over: 0,
      unit: 'weighted characters (a URL counts 23)',
    });
    expect(countPart(factsOf('platformB'), 'post', 'HTTPS://EXAMPLE.COM/A')?.length).toBe(23);
    expect(countPart(factsOf('platformB'), 'comment', 'a'.repeat(281))?.over).toBe(1);
    // platformA: the post in UTF-16 units (an emoji is 2), the comment in code points (1).
    expect(countPart(factsOf('platformA'), 'post', '🚀')?.length).toBe(2);
    expect(countPart(factsOf('platformA'), 'comment', '🚀')?.length).toBe(1);
    expect(countPart(factsOf('platformA'), 'reply', 'x')).toBeNull();
    expect(countPart(factsOf('platformC'), 'post', 'x')).toBeNull();
  });

  it('allows as many thread parts as the API, and threads only where the API has them', () => {
    for (const platform of ['platformA', 'platformB'] as const) {
      expect(maxThreadParts(FACTS[platform])).toBe(PROFILES[platform].threads?.maxFollowUps ?? 0);
      expect(hasThreads(FACTS[platform])).toBe(apiHasThreads(platform));
    }
    expect(maxThreadParts(FACTS.platformB)).toBe(24);
    expect(hasThreads(FACTS.platformA)).toBe(false);
  });
});

describe('what Compose sends', () => {
  it('sends no thread to platformA and no blank first comment', () => {
    expect(partsToSend(FACTS.platformA, ['two', 'three'], 'A link: https://example.com')).toEqual({
      thread: [],
      firstComment: 'A link: https://example.com',
    });
    expect(partsToSend(FACTS.platformB, ['two', ''], '   ')).toEqual({
      thread: ['two', ''],
      firstComment: null,
    });
  });
});

describe('validation issues per part', () => {
  // The API's own report for a thread with a blank part, a repeat, a part too long and a long comment.
  const report = partIssues(
    {
      post: 'The post',
      platform: 'platformB',
      thread: ['Part two', '', 'The post', 'x'.repeat(300)],
      firstComment: 'y'.repeat(281),
    },
    'platformB',
  );

  it('puts each issue under the part it names, worded without the API paths', () => {
    expect(issuesOf(report.errors, undefined)).toEqual([]);
    expect(issuesOf(report.errors, 'thread[0]')).toEqual([]);
    expect(issuesOf(report.errors, 'thread[1]').map((i) => i.message)).toEqual(['Must not be empty.']);
    expect(issuesOf(report.errors, 'thread[2]').map((i) => i.message)).toEqual([
      'Repeats the post; platformB refuses duplicate content.',
    ]);
    const long = issuesOf(report.errors, 'thread[3]');
    expect(long.map((i) => i.code)).toEqual(['too_long']);
    expect(long[0]!.message).toMatch(/^Is 300 weighted characters .*at most 280\.$/);
    expect(issuesOf(report.errors, 'firstComment').map((i) => i.code)).toEqual(['too_long']);
    // Nothing is lost: every issue the API reported shows under some part.
    const shown = ['thread[0]', 'thread[1]', 'thread[2]', 'thread[3]', 'firstComment'].flatMap(
      (p) => issuesOf(report.errors, p).length,
    );
    expect(shown.reduce((a, b) => a + b, 0)).toBe(report.errors.length);
  });

  it("shows platformA's refusal of a thread under the thread, with the API's reason", () => {
    const a = partIssues(
      { post: 'Hi', platform: 'platformA', thread: ['more'], firstComment: null },
      'platformA',
    );
    const issues = issuesOf(a.errors, 'thread');
    expect(issues.map((i) => i.code)).toEqual(['thread_not_supported']);
    expect(issues[0]!.message).toMatch(/^platformA has no threads; put a follow-up in firstComment/);
  });

  it('names parts the way people count them', () => {
    expect(partName('text')).toBe('the post');
    expect(partName('thread[0]')).toBe('part 2');
    expect(partName('thread[23]')).toBe('part 25');
    expect(partName('firstComment')).toBe('the first comment');
    const dup = issuesOf(
      [{ code: 'duplicate_part', part: 'firstComment', message: 'firstComment: Repeats thread[1]; x.' }],
      'firstComment',
    );
    expect(dup[0]!.message).toBe('Repeats part 3; x.');
  });
});

const published: PostParts = {
  status: 'published',
  platform: 'platformB',
  text: 'One',
  thread: ['Two', 'Three'],
  firstComment: 'Link: https://example.com',
  platformPostId: '1001',
  platformPostIds: ['1001', '1002', '1003'],
  platformUrl: 'https://x.com/sandy/status/1001',
  firstCommentId: '1004',
};

describe('published parts', () => {
  it('lists every part of a published platformB thread with its id and link', () => {
    const parts = publishedParts(published, FACTS.platformB);
    expect(parts.map((p) => [p.label, p.state, p.id, p.url])).toEqual([
      ['Part 1 of 3', 'published', '1001', 'https://x.com/sandy/status/1001'],
      ['Part 2 of 3', 'published', '1002', 'https://x.com/sandy/status/1002'],
      ['Part 3 of 3', 'published', '1003', 'https://x.com/sandy/status/1003'],
      ['First comment', 'published', '1004', 'https://x.com/sandy/status/1004'],
    ]);
    expect(partsSummary(published)).toBe('Thread of 3 parts · first comment published');
    expect(publishedSentence(published)).toBe('Published: all 3 parts and the first comment.');
    expect(publishedSentence({ thread: ['Two'], firstComment: null })).toBe('Published: all 2 parts.');
    expect(publishedSentence({ thread: [], firstComment: 'Hi' })).toBe('Published, with its first comment.');
    expect(publishedSentence({ thread: [], firstComment: null })).toBe('Published.');
  });

  it('keeps the parts that went out when a later part failed, and says which did not', () => {
    const failed = {
      ...published,
      status: 'failed',
      platformPostIds: ['1001', '1002'],
      firstCommentId: null,
    };
    expect(publishedParts(failed, FACTS.platformB).map((p) => p.state)).toEqual([
      'published',
      'published',
      'not published',
      'not published',
    ]);
    expect(partsSummary(failed)).toBe('Thread of 3 parts · first comment not published');
    const scheduled = {
      ...failed,
      status: 'scheduled',
      platformPostIds: [],
      platformPostId: null,
      platformUrl: null,
    };
    expect(publishedParts(scheduled, FACTS.platformB).map((p) => p.state)).toEqual([
      'waiting',
      'waiting',
      'waiting',
      'waiting',
    ]);
    expect(partsSummary(scheduled)).toBe('Thread of 3 parts · first comment to follow the post');
  });

  it("gives platformA's first comment no link of its own (it lives under the post)", () => {
    const a: PostParts = {
      status: 'published',
      platform: 'platformA',
      text: 'Post',
      thread: [],
      firstComment: 'Comment',
      platformPostId: 'urn:li:share:7',
      platformPostIds: ['urn:li:share:7'],
      platformUrl: 'https://www.linkedin.com/feed/update/urn:li:share:7',
      firstCommentId: 'urn:li:comment:(urn:li:share:7,9)',
    };
    const parts = publishedParts(a, FACTS.platformA);
    expect(parts.map((p) => [p.label, p.state, p.url])).toEqual([
      ['Part 1 of 1', 'published', a.platformUrl],
      ['First comment', 'published', null],
    ]);
    expect(partsSummary(a)).toBe('First comment published');
    expect(partsSummary({ ...a, firstComment: null })).toBeNull();
    // A link that does not end in the id cannot be turned into another part's.
    expect(partUrl({ ...published, platformUrl: 'https://x.com/home' }, '1002', FACTS.platformB)).toBeNull();
  });
});

describe('engine notice', () => {
  it('says plainly when the offline engine answered, and names the model otherwise', () => {
    const offline = engineNotice('heuristic');
    expect(offline.note).toBe(OFFLINE_NOTE);
    expect(engineLine(offline, 'score')).toEqual({
      offline: true,
      text: expect.stringMatching(/^No language model is configured\. This score comes from the rules/),
    });
    expect(engineLine(offline, 'plan')?.text).toMatch(/your brief's own words, not by a language model/);
    expect(engineLine(engineNotice('openai:gpt-4o-mini'), 'rewrite')).toEqual({
      offline: false,
      text: 'Made with the language model openai:gpt-4o-mini.',
    });
    expect(engineLine(undefined, 'score')).toBeNull();
  });

  it("reads /v1/meta's capabilities as the same engine the answers name", () => {
    const model = engineNotice('anthropic:claude-3-5-haiku-latest');
    expect(
      engineOfMeta({
        scoringEngine: 'anthropic',
        model: 'claude-3-5-haiku-latest',
        offline: false,
        engineNote: model.note,
      }),
    ).toEqual(model);
    expect(
      engineOfMeta({ scoringEngine: 'heuristic', model: null, offline: true, engineNote: OFFLINE_NOTE }),
    ).toEqual(engineNotice('heuristic'));
    expect(engineOfMeta(undefined)).toBeNull();
  });
});

describe('splitting a post into parts', () => {
  const B = FACTS.platformB;
  const A = FACTS.platformA;
  const max = B.parts.post.max;
  const fitsB = (part: string) => countPart(B, 'reply', part)!.over === 0;
  const words = (s: string) => s.split(/\s+/).filter(Boolean);
  // Prose as people write it: sentences of real words, paragraphs a blank line apart, a link.
  const sentence = fc
    .array(
      fc.constantFrom('the', 'build', 'cache', 'took', 'nine', 'minutes', 'https://example.com/x', 'é🚀'),
      {
        minLength: 1,
        maxLength: 30,
      },
    )
    .map((w) => `${w.join(' ')}.`);
  const prose = fc
    .array(
      fc.array(sentence, { minLength: 1, maxLength: 12 }).map((s) => s.join(' ')),
      {
        minLength: 1,
        maxLength: 6,
      },
    )
    .map((p) => p.join('\n\n'));

  it('at paragraphs: one part per paragraph, a long one cut at its sentences, every word kept in order', () => {
    fc.assert(
      fc.property(prose, (text) => {
        const parts = splitAtParagraphs(B, text);
        expect(parts.flatMap(words)).toEqual(words(text));
        if (parts.length <= maxThreadParts(B) + 1)
          for (const part of parts) expect(fitsB(part), part).toBe(true);
        // No part spans a blank line: a paragraph is never merged into another.
        for (const part of parts) expect(part).not.toMatch(/\n\s*\n/);
      }),
    );
    expect(splitAtParagraphs(B, 'One idea.\n\nA second.\n \nA third.')).toEqual([
      'One idea.',
      'A second.',
      'A third.',
    ]);
    // Without threads the text stays one post.
    expect(splitAtParagraphs(A, 'One idea.\n\nA second.')).toEqual(['One idea.\n\nA second.']);
  });

  it('a long sentence is cut at its words, a word longer than a part where the limit runs out', () => {
    const long = Array.from({ length: 80 }, (_, i) => `word${i}`).join(' ');
    const parts = splitAtParagraphs(B, long);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.join(' ')).toBe(long);
    for (const part of parts) expect(fitsB(part)).toBe(true);
    const huge = 'x'.repeat(max * 2 + 5);
    expect(splitAtParagraphs(B, huge)).toEqual(['x'.repeat(max), 'x'.repeat(max), 'x'.repeat(5)]);
  });

  it('a platformA post as a platformB thread: one part when it fits, else paragraphs packed into as few parts as fit', () => {
    expect(threadFrom(B, ['Short enough.'])).toEqual(['Short enough.']);
    const para = (n: number) => `Paragraph ${n}: ${'a few words '.repeat(8).trim()}.`;
    const text = [1, 2, 3, 4, 5].map(para).join('\n\n');
    const parts = threadFrom(B, [text]);
    // Two paragraphs (about 110 characters each) fit one part of 280, three do not.
    expect(parts).toEqual([`${para(1)}\n\n${para(2)}`, `${para(3)}\n\n${para(4)}`, para(5)]);
    fc.assert(
      fc.property(prose, (t) => {
        const out = threadFrom(B, [t]);
        expect(out.flatMap(words)).toEqual(words(t));
        if (out.length <= maxThreadParts(B) + 1) for (const part of out) expect(fitsB(part)).toBe(true);
      }),
    );
    // To a platform without threads, a thread becomes one post, its parts a blank line apart.
    expect(threadFrom(A, ['One.', 'Two.'])).toEqual(['One.\n\nTwo.']);
  });

  it('more parts than a thread carries: the rest joins the last part, which then shows as too long', () => {
    const text = Array.from({ length: maxThreadParts(B) + 4 }, (_, i) => `Part ${i}.`).join('\n\n');
    const parts = splitAtParagraphs(B, text);
    expect(parts).toHaveLength(maxThreadParts(B) + 1);
    expect(parts.flatMap(words)).toEqual(words(text));
  });
});

describe('a post group refusal, named for people', () => {
  it('names the channel and the part, never the variant index', () => {
    const labels = ['Sandy Sandbox (platformA)', '@sandy_b (platformB)'];
    expect(variantFieldName('variants[1].thread[0]', labels)).toBe('@sandy_b (platformB), part 2');
    expect(variantFieldName('variants[0].text', labels)).toBe('Sandy Sandbox (platformA), the post');
    expect(variantFieldName('variants[0].firstComment', labels)).toBe(
      'Sandy Sandbox (platformA), the first comment',
    );
    expect(variantFieldName('variants[1].channelId', labels)).toBe('@sandy_b (platformB), the channel');
    expect(variantFieldName('variants[1].mediaIds[0]', labels)).toBe('@sandy_b (platformB), the media');
    expect(variantFieldName('variants[2].text', labels)).toBeNull();
    expect(variantFieldName('queue', labels)).toBeNull();
  });
});

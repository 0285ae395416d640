import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { expect, it } from 'vitest';
import { CONCEPTS } from '../../src/scoring/concepts.ts';
import { ARCHETYPE_NOTES } from '../../src/scoring/rules/hook.ts';
import { runRules } from '../../src/scoring/rules/rules.ts';
import { scoreHeuristically } from '../../src/scoring/scorer.ts';
import type { ScoreInput, ScoreResult, Signal } from '../../src/scoring/types.ts';
import { describeRealPosts, readRealPosts } from '../helpers/real-posts.ts';

/**
 * Issue 32 items 1-3 and 5 as numbers, on real posts (never the held-out authors): one signal
 * per concept, no two opposite things, each claim true of the post where it is made, platform
 * facts from the platform's profile, and spans that point at the words a signal is about.
 */

const all = [
  ...readRealPosts('linkedin-creator-posts.csv'),
  ...readRealPosts('linkedin-posts-2025.csv'),
].filter((p) => !p.heldOut && p.text.trim().length > 0);
const posts = all.filter((_, i) => i % 8 === 0);
const inputOf = (p: (typeof posts)[number], extra: Partial<ScoreInput> = {}): ScoreInput => ({
  post: p.text,
  ...(p.media ? { media: p.media } : {}),
  ...extra,
});
/** The opening of a post short enough for platformB (280), cut at a word. */
const shortOf = (text: string) => text.slice(0, 270).replace(/\s+\S*$/u, '');

const scoredA = posts.map((p) => ({ p, input: inputOf(p), r: scoreHeuristically(inputOf(p)) }));
const scoredB = posts.map((p) => {
  const input = inputOf(p, { post: shortOf(p.text), platform: 'platformB' });
  return { p, input, r: scoreHeuristically(input) };
});
const everything = [...scoredA, ...scoredB];
const textOf = (s: { start: number; end: number }, post: string) => post.slice(s.start, s.end);
const ofRule = (r: ScoreResult, rule: string) => r.signals.filter((s) => s.rule === rule);

describeRealPosts('signals a writer can act on (real posts)', () => {
  it('samples enough posts to measure', () => {
    expect(posts.length).toBeGreaterThan(500);
  });

  it('gives every post at most one signal per concept, each of a known concept (0 repeats)', () => {
    let repeats = 0;
    for (const { r } of everything) {
      const concepts = r.signals.map((s) => s.concept);
      for (const c of concepts) expect(CONCEPTS).toContain(c);
      repeats += concepts.length - new Set(concepts).size;
    }
    expect(repeats).toBe(0);
  });

  it('never says two opposite things: one impact per concept, and the verdict praises and fixes different concepts', () => {
    let contradicting = 0;
    for (const { r } of everything) {
      const byConcept = new Map<string, Set<string>>();
      for (const s of r.signals)
        byConcept.set(s.concept, (byConcept.get(s.concept) ?? new Set()).add(s.impact));
      for (const impacts of byConcept.values()) if (impacts.size > 1) contradicting++;
      // A label is said once: two lines of one name read as one thing said twice.
      expect(new Set(r.signals.map((s) => s.label)).size).toBe(r.signals.length);
    }
    expect(contradicting).toBe(0);
  });

  it('never tells a writer to run the first line on beside advice to break lines or keep the white space', () => {
    // Found on real posts and in the console: "Opening line layout: ... keep it running on" beside
    // "Number of lines: ... give each idea a line of its own", and "run it on into the next
    // sentence" beside "Readable rhythm: ... keep that rhythm".
    const runOn = /run it on into the next sentence|keep it running on/;
    const breaks =
      /give each idea a line of its own|break it into|keep that rhythm|keep the paragraphs|give the opening line a line of its own|keep it on a line of its own/;
    let pairs = 0;
    let runOnSaid = 0;
    for (const { r } of everything) {
      const said = r.signals.map((s) => s.detail);
      if (!said.some((d) => runOn.test(d))) continue;
      runOnSaid++;
      if (said.some((d) => breaks.test(d))) pairs++;
    }
    expect(runOnSaid).toBeGreaterThan(0);
    expect(pairs).toBe(0);
  });

  it('claims names only where the post names someone or something, and points at them', () => {
    let fired = 0;
    for (const { r, input } of everything) {
      for (const s of r.signals.filter(
        (s) => s.rule === 'specificity.names' || (s.rule === 'text.names' && /names more/.test(s.detail)),
      )) {
        fired++;
        expect(s.spans.length, s.detail).toBeGreaterThan(0);
        for (const span of s.spans)
          expect(textOf(span, input.post)).toMatch(/^(?:\p{Lu}[\p{L}\p{N}]+|@\S+)$/u);
      }
    }
    expect(fired).toBeGreaterThan(20);
    // A title-case headline names no one.
    const headline = scoreHeuristically({ post: 'How To Build A Great Team In Less Time' });
    expect(headline.signals.some((s) => /names more|Named specifics/.test(`${s.label} ${s.detail}`))).toBe(
      false,
    );
  });

  const GROUP_PING = /(?<![\p{L}\p{N}_.])@(?:everyone|here|channel|all)(?![\p{L}\p{N}_.-])/iu;
  it('never counts a group ping ("@everyone", "@here") as a tagged person or a name', () => {
    // Every real post (not only the sample) that holds one: measured 2026-12-03, 1 post, 0 after.
    const pinging = all.filter((p) => GROUP_PING.test(p.text));
    expect(pinging.length).toBeGreaterThan(0);
    for (const post of [
      ...pinging.map((p) => p.text),
      '@everyone @here the release is out today. Read the notes before Friday and tell @channel what breaks.',
    ]) {
      const hits = runRules({ post }).hits;
      expect(hits.map((h) => h.rule)).not.toContain('mentions.tagged');
      for (const s of scoreHeuristically({ post }).signals.filter((s) => /names|mentions/.test(s.rule ?? '')))
        for (const span of s.spans) expect(textOf(span, post), s.label).not.toMatch(GROUP_PING);
    }
    expect(runRules({ post: 'Thanks @priya_k and @everyone who came.' }).hits.map((h) => h.rule)).toContain(
      'mentions.tagged',
    );
  });

  it('claims numbers only where the post has a number standing as a word, and points at it', () => {
    let fired = 0;
    for (const { r, input } of everything) {
      for (const s of r.signals.filter(
        (s) =>
          s.rule === 'specificity.numbers' || (s.rule === 'text.numbers' && /more numbers/.test(s.detail)),
      )) {
        fired++;
        expect(s.spans.length, s.detail).toBeGreaterThan(0);
        for (const span of s.spans) {
          expect(textOf(span, input.post)).toMatch(/^[$€£]?\d/u);
          expect(input.post.slice(span.start - 1, span.start)).not.toMatch(/[\p{L}\p{N}#@]/u);
        }
      }
    }
    expect(fired).toBeGreaterThan(20);
    const words = scoreHeuristically({ post: 'B2B teams love Web3 and COVID-19 stories. #100DaysOfCode' });
    expect(words.signals.some((s) => s.rule === 'specificity.numbers')).toBe(false);
  });

  /** The writer speaking: "I", "we", "my", "our", "me", "us", and their contractions ("I'm", "we've"). */
  const FIRST_PERSON = /(?<![\p{L}'’])(?:I|we|We|my|My|our|Our|me|us)(?![\p{L}])/u;
  /** An event or the writer's news: a verb in the past, or a word of news or thanks. */
  const EVENT =
    /(?<![\p{L}])(?:\p{L}{2,}ed|was|were|had|got|did|made|took|went|left|joined|started|quit|built|shipped|launched|lost|won|ran|became|moved|spent|sold|met|saw|found|hired|wrote|gave|told|began|came|broke|felt|heard|knew|led|paid|said|sent|sat|stood|taught|thought|been|done|seen|taken|first|thank|thanks|grateful|thrilled|proud|excited|honou?red|congrat\p{L}*|celebrat\p{L}*|milestone|new chapter|happy to (?:share|announce)|starting a new|joining|ago|yesterday|last (?:week|month|year))(?![\p{L}])/iu;
  /** Told in the first person: one sentence holds both the writer and the event. */
  const toldByWriter = (sentence: string) => FIRST_PERSON.test(sentence) && EVENT.test(sentence);
  it('claims a story only where a sentence tells an event in the first person (by an independent word-list check)', () => {
    let fired = 0;
    const untold: string[] = [];
    for (const { r, input } of everything) {
      const story = r.signals.filter(
        (s) =>
          s.rule === 'engagement.personal_story' || (s.rule === 'hook.archetype' && s.label === 'Story hook'),
      );
      if (story.length === 0) continue;
      fired++;
      // A story hook tells it in the opening itself; a personal story in some sentence of the post.
      const hook = story.find((s) => s.rule === 'hook.archetype');
      const told = hook
        ? toldByWriter(textOf(hook.spans[0]!, input.post))
        : input.post.split(/(?<=[.!?])\s+|\n+/).some(toldByWriter);
      if (!told) untold.push(input.post.slice(0, 80));
    }
    expect(fired).toBeGreaterThan(100);
    // Measured 2026-12-03: 0 of 182 (the check before a moment needed the writer and an event
    // beside it, and the archetype was the checks': 30 of 144, 20.8%). The check is a word list,
    // not a reader; the bound leaves room for one post in fifty it misreads.
    expect(untold.length / fired, untold.join('\n')).toBeLessThanOrEqual(0.02);
    // Bad writing that looks like a story to a word list: a moment with no event of the writer's,
    // a first word and no event, hearsay, someone else's news.
    for (const post of [
      'I am worried that we are not handling the migration well, and the board will ask.',
      'I think the market is pricing in two cuts this year, which looks too hopeful to me.',
      'This week, stay conscious of the story you are telling yourself. The words you whisper shape everything.',
      'Last week, a chip maker quietly unveiled a new model that beats the old one on every benchmark.',
      'My new definition of love is the overwhelming desire to show someone your favorite place.',
      'Congrats to Dee Choubey and MoneyLion on joining up with Gen. A great fit for both teams.',
      'Thanks to rising rates, most startups now raise smaller rounds. That changes the hiring plan.',
      'When I think about hiring, the first thing that comes to mind is trust.',
    ]) {
      const r = scoreHeuristically({ post });
      expect(r.hookArchetype, post).not.toBe('story');
      const labels = runRules({ post }).hits.map((h) => h.label);
      expect(labels, post).not.toContain('Story hook');
      expect(labels, post).not.toContain('Personal story');
    }
    // And stories a writer tells are still called so.
    for (const post of [
      'Last week I lost a big client. Here is what I learned from the call that ended it.',
      'Yesterday was my first day as a lead PM at a small startup, and I already broke the build.',
      'We shipped the new billing flow after 14 weeks. It cut refunds by a third.',
      "I've decided to leave my job at the bank after nine years.",
    ])
      expect(scoreHeuristically({ post }).hookArchetype, post).toBe('story');
  });

  const AGAINST =
    /unpopular opinion|hot take|controversial|\bstop\b|\b(?:nobody|no one) needs\b|is dead|are dead|overrated|myth|wrong|a lie|the truth|most people|everyone (?:says|thinks)|forget|you don['’]t need|the problem with|mistake/i;
  it('calls an opening contrarian only where it sets itself against a view', () => {
    for (const { r, input } of everything)
      for (const s of r.signals.filter((s) => s.label === 'Contrarian hook'))
        expect(textOf(s.spans[0]!, input.post)).toMatch(AGAINST);
    for (const post of [
      'Our revenue did not grow this quarter. Here is what we changed.',
      "We didn't ship on time.",
      // A tease of a secret contradicts no view.
      'Nobody talks about this, but most of our churn came from one onboarding email.',
      'No one tells you this about running a small agency: the invoices take longer than the work.',
    ])
      expect(scoreHeuristically({ post }).signals.map((s) => s.label)).not.toContain('Contrarian hook');
  });

  const LABEL_OF: Record<string, string> = {
    story: 'Story hook',
    statement: 'Statement hook',
    'pure-number': 'Number hook',
    contrarian: 'Contrarian hook',
    question: 'Question hook',
    other: 'No clear hook',
  };
  it('names one hook archetype, the one the claim checks agree with, in the result, its note and its signal', () => {
    let stories = 0;
    let untold = 0;
    let contrarian = 0;
    for (const { r, input } of everything) {
      const rules = runRules(input);
      const hook = rules.features.hook;
      expect(r.hookArchetype).toBe(rules.archetype);
      expect(r.hookArchetypeNote).toBe(ARCHETYPE_NOTES[r.hookArchetype]);
      // The hook rule's label, shown or not, is the archetype's own name.
      const said = rules.hits.find((h) => h.rule === 'hook.archetype')!;
      expect(said.label, hook).toBe(LABEL_OF[r.hookArchetype]);
      for (const s of r.signals.filter((s) => s.rule === 'hook.archetype'))
        expect(s.label).toBe(LABEL_OF[r.hookArchetype]);
      if (r.hookArchetype === 'story') {
        stories++;
        if (!toldByWriter(hook)) untold++;
      }
      if (r.hookArchetype === 'contrarian') {
        contrarian++;
        expect(hook).toMatch(AGAINST);
      }
    }
    expect(stories).toBeGreaterThan(100);
    expect(contrarian).toBeGreaterThan(5);
    // Measured 2026-12-03: 0 of 142 story openings without the writer and an event in them (28 contrarian).
    expect(untold / stories).toBeLessThanOrEqual(0.02);
  });

  const count = (re: RegExp, text: string) => text.match(re)?.length ?? 0;
  const YOU = /(?<![\p{L}'’])(?:you|your|yours|yourself|yourselves)(?![\p{L}])/giu;
  const OWN = /(?<![\p{L}'’])(?:I|me|my|mine|myself|we|us|our|ours|ourselves)(?![\p{L}])/giu;
  it('calls a post lecturing only where it says "you" many times and speaks little as "I" or "we"', () => {
    let fired = 0;
    for (const { input } of everything) {
      const hit = runRules(input).hits.find((h) => h.rule === 'voice.lecturing');
      if (!hit) continue;
      fired++;
      const you = count(YOU, input.post);
      expect(you, input.post.slice(0, 80)).toBeGreaterThanOrEqual(5);
      expect(count(OWN, input.post), input.post.slice(0, 80)).toBeLessThan(you);
      expect(hit.detail).toMatch(
        /^The post says "you" \d+ times (?:but never says "I" or "we"|and "I" or "we" only (?:once|twice|\d+ times)): .+; tell /,
      );
    }
    expect(fired).toBeGreaterThan(10);
    // One "you" in a post that speaks as "we" is no lecture, however short the post.
    for (const post of [
      'We shipped it. Have you?',
      'We rebuilt our onboarding this quarter and cut it from nine steps to four. If you run a small team, try it.',
      'You, me and the team: we ran the numbers together and we were wrong about churn.',
    ])
      expect(
        runRules({ post }).hits.map((h) => h.rule),
        post,
      ).not.toContain('voice.lecturing');
    // A lecture, built: all "you", no one speaking.
    const lecture = runRules({
      post: 'You need to wake up earlier. You need to stop scrolling. Your habits define you. If you want success, you must earn it.',
    }).hits.find((h) => h.rule === 'voice.lecturing');
    expect(lecture?.detail).toBe(
      'The post says "you" 6 times but never says "I" or "we": advice without your own experience reads as a lecture; tell what happened when you did it yourself.',
    );
  });

  it('never talks of a fold on a platform without one (platformB)', () => {
    let fold = 0;
    for (const { r } of scoredB)
      for (const s of r.signals) if (/\bfold\b|see more/i.test(`${s.label} ${s.detail}`)) fold++;
    expect(fold).toBe(0);
    // platformA's profile has a fold: a long opening there is told so.
    const post = `${'We moved every batch job to spot instances and '.repeat(6)}cut the bill.\n\nMore.`;
    expect(runRules({ post }).hits.map((h) => h.rule)).toContain('hook.fold');
    expect(runRules({ post, platform: 'platformB' }).hits.map((h) => h.rule)).not.toContain('hook.fold');
  });

  it('flags every post over the limit on both platforms, and length never helps past it', () => {
    const over = [
      ...all
        .filter((p) => p.text.trim().length > 3000)
        .map((p) => ({ post: p.text, platform: 'platformA' as const })),
      ...posts
        .filter((p) => p.text.trim().length > 300)
        .map((p) => ({ post: p.text, platform: 'platformB' as const })),
      { post: `${'I shipped it. '.repeat(230)}Done.`, platform: 'platformA' as const },
    ];
    expect(over.length).toBeGreaterThan(100);
    for (const input of over) {
      const r = scoreHeuristically(input);
      const length = r.signals.filter((s) => s.concept === 'length');
      expect(
        length.map((s) => [s.rule, s.impact]),
        input.post.slice(0, 80),
      ).toEqual([['length.over_limit', 'negative']]);
      const span = length[0]!.spans[0]!;
      expect(span.end).toBe(input.post.length);
      expect(span.start).toBeGreaterThan(0);
    }
    // A 10,000-character draft gains nothing from its length.
    const draft = 'We grew the team from 4 to 19 people in 2025 and learned a lot. '.repeat(160);
    const long = scoreHeuristically({ post: draft });
    expect(long.signals.some((s) => s.concept === 'length' && s.impact === 'positive')).toBe(false);
    expect(long.overall).toBeLessThanOrEqual(scoreHeuristically({ post: draft.slice(0, 2990) }).overall);
  });

  it('honours an explicit hashtagCount and hasExternalLink as the contract says', () => {
    const post = posts.find((p) => p.text.length > 600 && !/#|https?:|www\./.test(p.text))!.text;
    const none = scoreHeuristically({ post, hashtagCount: 0 });
    const seven = scoreHeuristically({ post, hashtagCount: 7 });
    expect(seven.breakdown.algorithmFit).toBeLessThan(none.breakdown.algorithmFit);
    expect(seven.breakdown.algorithmFit).toBeLessThanOrEqual(75);
    expect(ofRule(seven, 'hashtags.excess').map((s) => s.impact)).toEqual(['negative']);
    const linked = scoreHeuristically({ post, hasExternalLink: true });
    expect(ofRule(linked, 'link.external').map((s) => s.impact)).toEqual(['negative']);
    expect(linked.breakdown.algorithmFit).toBeLessThanOrEqual(60);
    const withUrl = `${post}\nhttps://example.com/report`;
    expect(ofRule(scoreHeuristically({ post: withUrl, hasExternalLink: false }), 'link.external')).toEqual(
      [],
    );
  });

  it('points every span inside the post, at the words each signal is about', () => {
    let spans = 0;
    for (const { r, input } of everything) {
      for (const s of r.signals) {
        for (const span of s.spans) {
          spans++;
          expect(span.start).toBeGreaterThanOrEqual(0);
          expect(span.end).toBeGreaterThan(span.start);
          expect(span.end).toBeLessThanOrEqual(input.post.length);
        }
        const words = s.spans.map((span) => textOf(span, input.post));
        if (s.concept === 'links')
          for (const w of words) expect(w).toMatch(/^(?:https?:|www\.|lnkd\.in|bit\.ly)/);
        if (s.concept === 'hashtags') for (const w of words) expect(w).toMatch(/^#/);
        if (s.concept === 'tags') for (const w of words) expect(w).toMatch(/^@/);
        if (s.rule === 'hook.archetype' || s.rule === 'hook.fold')
          expect(input.post.trimStart().startsWith(words[0]!)).toBe(true);
        // The closing question is the question, not the hashtags after it ("What would you answer? #India").
        if (s.rule === 'engagement.closing_question' || s.rule === 'text.ends_with_question')
          for (const w of words) expect(w, input.post.slice(-80)).toMatch(/\?$/);
        if (s.rule === 'text.word_choice')
          for (const [, quoted] of s.detail.matchAll(/"([^"]+)"/g))
            expect(words.map((w) => w.toLowerCase().replaceAll('’', "'"))).toContain(quoted!.toLowerCase());
      }
    }
    expect(spans).toBeGreaterThan(1000);
  });

  it('maps spans back to the text as sent: carriage returns, trailing spaces and white space around it', () => {
    const post =
      '  \r\nI shipped it with Stripe after 14 weeks.  \r\n\r\nSee https://example.com/x #billing\r\n ';
    const r = scoreHeuristically({ post });
    const at = (rule: string) => r.signals.find((s) => s.rule === rule)?.spans.map((s) => textOf(s, post));
    expect(at('hook.archetype')).toEqual(['I shipped it with Stripe after 14 weeks.']);
    expect(at('link.external')).toEqual(['https://example.com/x']);
  });

  it('names in word choice only content words, with a direction, or says nothing of word choice', () => {
    const FUNCTION =
      /^(?:the|a|an|and|or|but|of|to|in|on|for|with|while|it|is|if|you|i|we|my|our|your|https?|www|was|at|across|around|against|among|along|behind|toward|upon|via|per|despite|like)$/i;
    let shown = 0;
    for (const { r } of everything) {
      for (const s of r.signals.filter((s) => s.concept === 'word_choice')) {
        shown++;
        expect(s.detail).toMatch(/went with (?:more|less) engagement \([-+]\d+\.\d points\); (?:keep|where)/);
        for (const [, quoted] of s.detail.matchAll(/"([^"]+)"/g))
          expect(
            quoted!.split(' ').every((w) => FUNCTION.test(w)),
            quoted,
          ).toBe(false);
        expect(s.weight).toBeGreaterThanOrEqual(1);
      }
    }
    expect(shown).toBeGreaterThan(10);
  });

  const LINK_PARSER = '/usr/bin/link-parser';
  it.skipIf(!existsSync(LINK_PARSER))(
    'parses the signal sentences made for concepts, limits and word choice',
    () => {
      const clean = (t: string) =>
        t
          .replace(/"[^"]*"( and "[^"]*")?/g, 'these words')
          .replace(/\d+(?:,\d+)?[-–]\d+(?:,\d+)?/g, 'ten')
          .replace(/\s*\([^)]*\)/g, '')
          .replace(/[-+$]?\d+(?:[.,]\d+)*(?:\/100|x|%)?/g, 'ten')
          .replace(/ten-ten/g, 'ten')
          .replace(/, these words/g, '')
          .replace(/\s+/g, ' ')
          .trim();
      const sentences = new Set<string>();
      const signals: Signal[] = [
        ...everything.slice(0, 200).flatMap(({ r }) => r.signals),
        ...scoreHeuristically({ post: 'x '.repeat(1600), platform: 'platformA' }).signals,
        ...scoreHeuristically({ post: 'I shipped it. '.repeat(30), platform: 'platformB' }).signals,
      ];
      for (const s of signals)
        if (/^(?:length|text\.word_choice|structure\.few|hashtags)/.test(s.rule ?? ''))
          for (const part of clean(s.detail).split(/;\s*|:\s+|\.\s+/))
            sentences.add(`${part.replace(/\.$/, '')}.`);
      const list = [...sentences];
      expect(list.length).toBeGreaterThan(5);
      const out = execFileSync(LINK_PARSER, ['en', '-batch'], {
        input: `!null=0\n!echo\n${list.join('\n')}\n`,
        encoding: 'utf8',
        stdio: ['pipe', 'pipe', 'pipe'],
      }).split('\n');
      expect(out.filter((_, k) => out[k + 1]?.startsWith('+++++ error'))).toEqual([]);
    },
  );
});

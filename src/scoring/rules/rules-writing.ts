import { newsInFirstPerson } from './claims.ts';
import { hit, quotedList, type RuleContext, type RuleHit } from './rule-kit.ts';

/** Writing rules: specificity, voice and engagement pull. */

export function writingRules(ctx: RuleContext, hits: RuleHit[]) {
  const { f, per100 } = ctx;
  if (f.numbers >= 1) {
    hits.push(
      hit(
        'specificity.numbers',
        'specificity',
        f.numbers >= 2 ? 8 : 4,
        'Concrete numbers',
        f.numbers > 1
          ? `${f.numbers} numbers let readers check the claims.`
          : 'A number lets readers check the claim.',
        2,
      ),
    );
  }
  const names = per100(f.properNouns + f.mentions);
  if (names >= 2) {
    hits.push(
      hit(
        'specificity.names',
        'specificity',
        names >= 5 ? 12 : 8,
        'Named specifics',
        'Names of people, products and places ground the post in something real.',
        2,
      ),
    );
  }
  if (per100(f.vague) >= 2) {
    hits.push(
      hit(
        'specificity.vague',
        'specificity',
        -8,
        'Vague wording',
        `The post leans on ${quotedList(f.phrases.vague)} instead of specifics; name what you mean.`,
        2,
      ),
    );
  }
  if (f.jargon >= 2) {
    hits.push(
      hit(
        'specificity.jargon',
        'specificity',
        -8,
        'Corporate jargon',
        `${f.jargon} jargon terms read like a press release.`,
        2,
      ),
    );
  }

  if (f.aiTells > 0) {
    const found = f.phrases.aiTells;
    hits.push(
      hit(
        'voice.ai_tells',
        'voice',
        -Math.min(24, 8 * f.aiTells),
        'AI-tells',
        `Phrases that read as machine-written: ${found.map((p) => `"${p}"`).join(', ')}.`,
        f.aiTells >= 2 ? 4 : 3,
      ),
    );
  }
  if (f.emDashes >= 3) {
    hits.push(
      hit(
        'voice.em_dash_stack',
        'voice',
        -6,
        'Em-dash stack',
        `${f.emDashes} em dashes; a stack of them is a common AI-tell.`,
        2,
      ),
    );
  }
  if (f.notXButY >= 2) {
    hits.push(
      hit(
        'voice.not_x_but_y',
        'voice',
        -6,
        '"Not X but Y" cadence',
        `The "it's not X, it's Y" construction appears ${f.notXButY} times; once is a device, more is a tic.`,
        2,
      ),
    );
  }
  if (per100(f.firstPerson) >= 2) {
    hits.push(
      hit(
        'voice.first_person',
        'voice',
        8,
        'Personal voice',
        'Written in the first person: text posts from people earn 1.69x their median, company text 1.12x (31,020 posts).',
        2,
      ),
    );
  } else if (f.firstPersonPlural >= 3 && f.firstPersonPlural > 2 * f.firstPerson) {
    hits.push(
      hit(
        'voice.corporate_we',
        'voice',
        -6,
        'Company voice',
        'Reads as a company page ("we", "our"); company text posts reach 0.46x the median against 1.17x for people (van der Blom 2024).',
        2,
      ),
    );
  }
  if (per100(f.secondPerson) >= 5 && f.firstPerson * 2 < f.secondPerson) {
    hits.push(
      hit(
        'voice.lecturing',
        'voice',
        -6,
        'Lecturing tone',
        'Many "you" and few "I": advice without the author\'s own experience reads as a lecture.',
        2,
      ),
    );
  }
  engagementRules(ctx, hits);
}

function engagementRules({ f, archetype }: RuleContext, hits: RuleHit[]) {
  // A story opening (the archetype is the claim checks': hook.ts), or the writer's own news or
  // thanks said in the first person anywhere in the post (claims.ts).
  if (archetype === 'story' || (f.personalNews > 0 && newsInFirstPerson(f.text, f.phrases.personalNews))) {
    hits.push(
      hit(
        'engagement.personal_story',
        'engagement',
        12,
        'Personal story',
        'A milestone, a thank-you or a moment from your own life invites replies from the people in it.',
        3,
      ),
    );
  }
  if (f.callsToComment > 0 && f.bait === 0) {
    hits.push(
      hit(
        'engagement.call_to_comment',
        'engagement',
        5,
        'Invites comments',
        'Asks readers for their experience, which earns comments rather than reactions alone.',
        2,
      ),
    );
  }
  if (f.endsWithQuestion) {
    hits.push(
      hit(
        'engagement.closing_question',
        'engagement',
        3,
        'Closing question',
        'Ends on a question that gives readers something to answer.',
        1,
      ),
    );
  }
  if (f.questions >= 4) {
    hits.push(
      hit(
        'engagement.question_overload',
        'engagement',
        -8,
        'Too many questions',
        `The post asks ${f.questions} questions; a stack of rhetorical questions reads as filler. Keep the one you want answered.`,
        2,
      ),
    );
  }
}

import { newsInFirstPerson } from './claims.ts';
import { hit, quotedList, type RuleContext, type RuleHit } from './rule-kit.ts';

/** Writing rules: specificity, voice and engagement pull. */

/** The fewest "you" a lecture needs. */
const LECTURING_YOU = 5;
const timesWord = (n: number) => (n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`);

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
          ? { finding: `${f.numbers} numbers let readers check the claims`, act: 'keep them' }
          : { finding: 'A number lets readers check the claim', act: 'keep it' },
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
        {
          finding: 'Names of people, products and places ground the post in something real',
          act: 'keep them',
        },
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
        {
          finding: `The post leans on ${quotedList(f.phrases.vague)} instead of specifics`,
          act: 'name what you mean',
        },
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
        {
          finding:
            f.phrases.jargon.length > 0
              ? `Jargon such as ${quotedList(f.phrases.jargon)} reads like a press release`
              : `${f.jargon} jargon terms read like a press release`,
          act: 'say it in plain words',
        },
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
        {
          finding: `${quotedList(found)} ${found.length === 1 ? 'reads' : 'read'} as machine-written`,
          act: 'say it in your own words',
        },
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
        {
          finding: `The post has ${f.emDashes} em dashes, and a stack of them is a common AI-tell`,
          act: 'keep one at most and use commas or full stops for the rest',
        },
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
        {
          finding: `The post says "it's not X, it's Y" ${f.notXButY} times, and a device used that often becomes a tic`,
          act: 'keep the one that matters most',
        },
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
        {
          finding:
            'Written in the first person: text posts from people earn 1.69x their median, and company text earns 1.12x (31,020 posts)',
          act: 'keep telling it as your own',
        },
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
        {
          finding:
            'The post reads as a company page ("we", "our"), and company text posts reach 0.46x the median against 1.17x for people (van der Blom 2024)',
          act: 'say "I" where it is your own experience',
        },
        2,
      ),
    );
  }
  // "Many" is many: at least LECTURING_YOU "you" (a quarter of real posts say it 4 times or
  // more) and 5 per 100 words. The writer's own voice is "I" and "we" alike: a team that speaks
  // as "we" tells its own experience.
  const own = f.firstPerson + f.firstPersonPlural;
  if (f.secondPerson >= LECTURING_YOU && per100(f.secondPerson) >= 5 && own * 2 < f.secondPerson) {
    hits.push(
      hit(
        'voice.lecturing',
        'voice',
        -6,
        'Lecturing tone',
        {
          finding: `The post says "you" ${f.secondPerson} times ${own === 0 ? 'but never says "I" or "we"' : `and "I" or "we" only ${timesWord(own)}`}: advice without your own experience reads as a lecture`,
          act: 'tell what happened when you did it yourself',
        },
        2,
      ),
    );
  }
  engagementRules(ctx, hits);
}

function engagementRules({ f, archetype }: RuleContext, hits: RuleHit[]) {
  // A story opening (the archetype is the claim checks': hook.ts), or the writer's own news or
  // thanks said in the first person anywhere in the post (claims.ts).
  if (
    archetype === 'story' ||
    (f.personalNews > 0 &&
      newsInFirstPerson(f.text, f.phrases.personalNews, { lower: f.lower, sentences: f.sentenceRanges }))
  ) {
    hits.push(
      hit(
        'engagement.personal_story',
        'engagement',
        12,
        'Personal story',
        {
          finding:
            'A milestone, a thank-you or a moment from your own life invites replies from the people in it',
          act: 'keep the moment at the centre of the post',
        },
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
        {
          finding:
            'The post asks readers for their experience, which earns comments rather than reactions alone',
          act: 'keep the request specific',
        },
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
        {
          finding: 'The post ends on a question that gives readers something to answer',
          act: 'make it a question they can answer from their own work',
        },
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
        {
          finding: `The post asks ${f.questions} questions, and a stack of rhetorical questions reads as filler`,
          act: 'keep the one you want answered',
        },
        2,
      ),
    );
  }
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeModel, fenced, startFakeModel } from '../intelligence/fake-model.ts';
import { CHROMIUM, hasChromium, screenshot } from './browser.ts';
import { type BrowserWorld, startBrowserWorld } from './browser-world.ts';

/**
 * The Generate panel says in one plain line who wrote the drafts (issue 34 item 4), in Debian's
 * Chromium against the real API with a language model configured: the fake model server on
 * loopback. A draft that passes the checks is the model's; one that drops the brief's figure twice
 * is the offline engine's, and the line names the check in plain words. The Plan page says the
 * same of its outline: the model's plan, or the offline one standing in and why.
 */
if (!hasChromium) {
  console.warn(`console generate-engine test skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);
}

const BRIEF = 'We cut deploy time from 42 minutes to 6 at Initrode.';
const GOOD = 'Deploys at Initrode took 42 minutes. Now they take 6.\n\nWhat would you cache first?';

describe.skipIf(!hasChromium)('the Generate panel says who wrote the drafts', { timeout: 90_000 }, () => {
  let world: BrowserWorld;
  let fake: FakeModel;

  beforeAll(async () => {
    fake = await startFakeModel();
    world = await startBrowserWorld({
      LLM_PROVIDER: 'openai-compatible',
      LLM_BASE_URL: fake.url,
      LLM_MODEL: 'fake-1',
      LLM_TIMEOUT_MS: '10000',
    });
  }, 120_000);

  afterAll(async () => {
    await world?.close();
    await fake?.close();
  });

  async function generate(brief: string) {
    const page = await world.open('/compose', 'Compose');
    await page.getByText('Generate from a brief').click();
    await page.getByLabel('Brief').fill(brief);
    await page.getByLabel('Candidates').selectOption('1');
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    await page.locator('.candidates li.card').first().waitFor({ timeout: 60_000 });
    return page;
  }

  const PLAN_BRIEF = (where: string) =>
    `Night-shift handovers at ${where} went from 22 to 9 minutes. Nurses now hand over at the bedside with a written checklist.`;
  const planItems = (where: string) => [
    {
      pillar: 'Handovers',
      hook: `Night-shift handovers at ${where} went from 22 to 9 minutes.`,
      angle: 'What changed on the night shift, told in order.',
      format: 'none',
      archetype: 'pure-number',
    },
    {
      pillar: 'Checklists',
      hook: 'The checklist nurses read at the bedside.',
      angle: 'Walk through the written checklist, line by line.',
      format: 'document',
      archetype: 'statement',
    },
  ];

  async function planOnPage(brief: string) {
    const page = await world.open('/plan', 'Plan');
    await page.getByLabel('Brief').fill(brief);
    await page.getByLabel('Posts').fill('2');
    const planned = page.waitForResponse((r) => new URL(r.url()).pathname === '/v1/plan');
    await page.getByRole('button', { name: 'Plan', exact: true }).click();
    const result = await (await planned).json();
    await page.locator('ol.plan-items > li').first().waitFor({ timeout: 60_000 });
    return { page, result };
  }

  it('the Plan page names the language model when its plan passes the checks', async () => {
    fake.next('plan', () => ({ kind: 'json', value: { items: planItems('St Mary') } }));
    const { page, result } = await planOnPage(PLAN_BRIEF('St Mary'));
    expect(result.writtenBy.engine).toBe('model');
    expect(await page.locator('.plan-by').textContent()).toBe(
      'Planned by the language model openai-compatible:fake-1.',
    );
    expect(await page.locator('.engine-note').count()).toBe(1);
    await page.context().close();
  });

  it('the Plan page says the offline engine planned when the model’s plan dropped a figure twice, and why', async () => {
    const dropped = () => ({
      kind: 'json' as const,
      value: {
        items: planItems('St Anne').map((i, k) =>
          k === 0 ? { ...i, hook: 'Night-shift handovers at St Anne got much faster.' } : i,
        ),
      },
    });
    fake.next('plan', dropped);
    fake.next('plan', dropped);
    const { page, result } = await planOnPage(PLAN_BRIEF('St Anne'));
    expect(result.writtenBy).toMatchObject({ engine: 'offline', failedCheck: 'numbers' });
    const line = await page.locator('.plan-by').textContent();
    expect(line).toBe(result.writtenBy.note);
    expect(line).toMatch(
      /^Planned by the offline engine: the language model's plan left out numbers the brief gives \(22, 9\)/,
    );
    expect(world.errors).toEqual([]);
    await page.context().close();
  });

  it('names the language model when its draft passes the checks', async () => {
    fake.next('generate', () => ({ kind: 'json', value: { candidates: [{ post: GOOD }] } }));
    const page = await generate(BRIEF);
    const line = page.locator('.drafts-by');
    expect(await line.textContent()).toBe('Written by the language model openai-compatible:fake-1.');
    expect(await page.locator('.candidates li.card p.pre').first().textContent()).toBe(GOOD);
    expect(await page.locator('.engine-note').count()).toBe(1);
    await page.context().close();
  });

  it('says the offline engine wrote the draft when the model’s dropped a figure twice, naming the check', async () => {
    const dropped = (_r: unknown, prompt: string) => ({
      kind: 'json' as const,
      value: { candidates: [{ post: `${fenced(prompt).replace(' to 6', '')}\n\nWhat would you cache?` }] },
    });
    fake.next('generate', dropped);
    fake.next('generate', dropped);
    const brief = BRIEF.replace('Initrode', 'Initech');
    const page = await generate(brief);
    expect(await page.locator('.drafts-by').textContent()).toBe(
      "This draft was written by the offline engine because the language model's draft left out a number from your brief, even after one retry.",
    );
    const draft = await page.locator('.candidates li.card p.pre').first().textContent();
    for (const fact of ['42', '6', 'Initech']) expect(draft).toContain(fact);
    await screenshot(page, 'generate-offline-stand-in');
    expect(world.errors).toEqual([]);
    await page.context().close();
  });
});

import { describe, expect, it } from 'vitest';
import { draftsLine, planLine, type WrittenBy } from '../../web/src/lib/engine.ts';

/** The Generate page's one line on who wrote the drafts (web/src/lib/engine.ts), without a browser. */
const model = { id: 'openai:gpt-4o-mini', offline: false, note: '' };
const BY_MODEL: WrittenBy = { engine: 'model', failedCheck: null, note: 'Written by the language model.' };
const fell = (failedCheck: string): WrittenBy => ({ engine: 'offline', failedCheck, note: 'x' });

describe('draftsLine', () => {
  it('says nothing of its own offline: the offline notice speaks', () => {
    expect(draftsLine({ id: 'heuristic', offline: true, note: '' }, [fell('numbers')])).toBeNull();
    expect(draftsLine(model, [undefined])).toBeNull();
  });

  it('names the model when it wrote every draft', () => {
    expect(draftsLine(model, [BY_MODEL])).toBe('Written by the language model openai:gpt-4o-mini.');
    expect(draftsLine(model, [BY_MODEL, BY_MODEL])).toBe(
      'All 2 drafts were written by the language model openai:gpt-4o-mini.',
    );
  });

  it('names which drafts the offline engine wrote and the check the model failed, in plain words', () => {
    expect(draftsLine(model, [fell('numbers')])).toBe(
      "This draft was written by the offline engine because the language model's draft left out a number from your brief, even after one retry.",
    );
    expect(draftsLine(model, [BY_MODEL, fell('ai_tells'), BY_MODEL])).toBe(
      "The language model openai:gpt-4o-mini wrote drafts 1 and 3; the offline engine wrote draft 2 because the language model's draft used wording that reads as machine-written, even after one retry.",
    );
    expect(draftsLine(model, [fell('labels'), fell('length')])).toBe(
      "These drafts were written by the offline engine because the language model's drafts repeated a label or instruction from your brief and ran over the platform's length limit, even after one retry.",
    );
  });
});

describe('planLine', () => {
  it("names the model, says the API's reason after a fallback, and nothing offline", () => {
    expect(planLine(model, BY_MODEL)).toBe('Planned by the language model openai:gpt-4o-mini.');
    const note =
      "Planned by the offline engine: the language model's plan left out a number the brief gives (9), even after one retry.";
    expect(planLine(model, { engine: 'offline', failedCheck: 'numbers', note })).toBe(note);
    expect(planLine({ id: 'heuristic', offline: true, note: '' }, fell('numbers'))).toBeNull();
    expect(planLine(model, undefined)).toBeNull();
  });
});

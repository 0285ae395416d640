import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { transitionDiagram } from '../../src/features/posts/core/diagram.ts';
import {
  allows,
  POST_TRANSITIONS,
  statesAllowing,
  TERMINAL_STATES,
  targetOf,
} from '../../src/features/posts/core/transitions.ts';

const root = join(import.meta.dirname, '..', '..');

describe('the post transition table', () => {
  it('is the diagram docs/architecture.md shows', () => {
    const doc = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');
    expect(doc).toContain(`\`\`\`mermaid\n${transitionDiagram()}\n\`\`\``);
  });

  it('lets only the claims into publishing, and nothing out of a terminal state', () => {
    const intoPublishing = Object.entries(POST_TRANSITIONS).flatMap(([from, events]) =>
      Object.entries(events)
        .filter(([, t]) => t.to === 'publishing' && from !== 'publishing')
        .map(([event]) => `${from}:${event}`),
    );
    expect(intoPublishing.sort()).toEqual([
      'draft:publish_now',
      'scheduled:fall_due',
      'scheduled:publish_now',
    ]);
    expect(TERMINAL_STATES.sort()).toEqual(['canceled', 'failed', 'published']);
    for (const state of TERMINAL_STATES) expect(Object.keys(POST_TRANSITIONS[state])).toEqual([]);
  });

  it('gives each event one target and the sets the services check', () => {
    expect(targetOf('publish_now')).toBe('publishing');
    expect(targetOf('retry')).toBe('scheduled');
    expect(statesAllowing('publish_now')).toEqual(['draft', 'scheduled']);
    expect(statesAllowing('schedule')).toEqual(['draft', 'scheduled']);
    expect(statesAllowing('cancel')).toEqual(['draft', 'scheduled', 'publishing']);
    expect(statesAllowing('fall_due')).toEqual(['scheduled']);
    expect(allows('draft', 'edit')).toBe(true);
    expect(allows('scheduled', 'edit')).toBe(false);
    expect(allows('published', 'cancel')).toBe(false);
    expect(allows('nonsense', 'cancel')).toBe(false);
  });

  it('cancels a publishing post only while its create has not been sent', () => {
    expect(POST_TRANSITIONS.publishing.cancel?.only).toBeTypeOf('function');
    expect(POST_TRANSITIONS.draft.cancel?.only).toBeUndefined();
  });
});

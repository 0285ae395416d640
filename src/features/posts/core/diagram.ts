import { POST_TRANSITIONS } from './transitions.ts';

/**
 * The transition table as a Mermaid state diagram: docs/publishing.md embeds this text, and a
 * test checks the two still match, so the picture cannot drift from the rules.
 */
export function transitionDiagram(): string {
  const lines = ['stateDiagram-v2', '  [*] --> draft: create', '  [*] --> scheduled: create with runAt'];
  for (const [from, events] of Object.entries(POST_TRANSITIONS)) {
    for (const [event, t] of Object.entries(events)) {
      lines.push(`  ${from} --> ${t.to}: ${event}${t.onlyIf ? ` (${t.onlyIf})` : ''}`);
    }
  }
  for (const [state, events] of Object.entries(POST_TRANSITIONS)) {
    if (Object.keys(events).length === 0) lines.push(`  ${state} --> [*]`);
  }
  return lines.join('\n');
}

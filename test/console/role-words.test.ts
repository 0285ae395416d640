import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { invitedLine, joinRoleWords, ROLES, withArticle } from '../../web/src/lib/roles.ts';

/** The Join page's sentences about an invitation: built from the preview, for every role. */
describe('invitation words', () => {
  const preview = {
    workspace: 'studio@agency.example',
    invitedBy: 'Ada Admin' as string | null,
    role: 'editor' as const,
    email: 'wren@agency.example',
    expiresAt: 0,
    approvals: 'off' as const,
  };

  it('names the inviter, the workspace and the role with its article', () => {
    expect(invitedLine(preview)).toBe(
      'Ada Admin invited you to join the workspace of studio@agency.example as an editor',
    );
    expect(invitedLine({ ...preview, invitedBy: null, role: 'viewer' })).toBe(
      'You were invited to join the workspace of studio@agency.example as a viewer',
    );
    expect(ROLES.map(withArticle)).toEqual(['a viewer', 'an editor', 'an admin', 'an owner']);
  });

  it('tells an editor about approvals only where the workspace requires them', () => {
    expect(joinRoleWords('editor', 'required')).toContain('submit them for approval');
    expect(joinRoleWords('editor', 'off')).not.toContain('approv');
    // Approvals do not hold the approvers.
    for (const role of ['viewer', 'admin', 'owner'] as const)
      expect(joinRoleWords(role, 'required')).toBe(joinRoleWords(role, 'off'));
  });

  const linkParser = '/usr/bin/link-parser';
  it.skipIf(!existsSync(linkParser))('every sentence parses as English (link-parser)', () => {
    const sentences = ROLES.flatMap((role) =>
      (['off', 'required'] as const).map((a) => joinRoleWords(role, a).replace(/’/g, "'")),
    );
    sentences.push(`${invitedLine({ ...preview, workspace: 'Studio' })}.`);
    const out = execFileSync(linkParser, ['en', '-batch'], {
      input: `!null=0\n!echo\n${[...new Set(sentences)].join('\n')}\n`,
      maxBuffer: 1 << 24,
      stdio: ['pipe', 'pipe', 'ignore'],
    }).toString();
    const rejected = out
      .split('\n')
      .flatMap((l, i, all) => (l.startsWith('+++++ error') ? [all[i - 1]] : []));
    expect(rejected).toEqual([]);
  });
});

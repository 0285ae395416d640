import { type Role, scopesForRole } from '../../src/domain/roles.ts';
import { issueKey } from '../../src/features/keys/keys.service.ts';
import { insertMember } from '../../src/features/members/member-row.ts';
import type { TestApp } from '../helpers/app.ts';

export interface TeamMember {
  memberId: string;
  apiKey: string;
  keyId: string;
  email: string;
}

export interface Team {
  accountId: string;
  owner: TeamMember;
  /** Adds a member of `role` with a first key holding what the role reaches. */
  add(role: Role, email?: string): Promise<TeamMember>;
}

let counter = 0;

/**
 * A workspace with its owner, and members added the way an accepted invitation adds them (the
 * same insertMember and issueKey), so tests of roles need not walk invitations first.
 */
export async function startTeam(t: TestApp): Promise<Team> {
  const signup = await t.request('POST', '/v1/account', {
    body: { email: `owner${++counter}-${Date.now()}@agency.example` },
  });
  if (signup.status !== 201) throw new Error(`signup failed: ${signup.status} ${signup.text}`);
  const accountId: string = signup.body.account.id;
  const owner: TeamMember = {
    memberId: signup.body.member.id,
    apiKey: signup.body.apiKey,
    keyId: signup.body.key.id,
    email: signup.body.member.email,
  };
  const { db, clock } = t.service.deps;
  return {
    accountId,
    owner,
    async add(role, email = `${role}${++counter}-${Date.now()}@agency.example`) {
      const now = clock.now();
      return db.transaction(async (tx) => {
        const row = await insertMember(tx, { accountId, email, name: null, role, now });
        if (!row) throw new Error(`${email} is already a member`);
        const { key, apiKey } = await issueKey(
          tx,
          { accountId, memberId: row.id },
          'first',
          now,
          scopesForRole(role),
        );
        return { memberId: row.id, apiKey, keyId: key.id, email };
      });
    },
  };
}

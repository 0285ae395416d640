import { Writable } from 'node:stream';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/lib/logger.ts';

/** Database errors reach the logs as what failed and where, never with the values (issue 37 item 3). */
function logged(write: (log: ReturnType<typeof createLogger>) => void): string {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  write(createLogger('info', sink, 'json'));
  return lines.join('');
}

const TEXT = 'A private post\nparams: on two lines, with a@example.com';
const DIGEST = 'a'.repeat(64);

function failedInsert() {
  const driver = Object.assign(
    new Error('duplicate key value violates unique constraint "accounts_email_unique"'),
    {
      code: '23505',
      detail: 'Key (email)=(a@example.com) already exists.',
      constraint: 'accounts_email_unique',
    },
  );
  return new DrizzleQueryError(
    'insert into "posts" ("text", "key_hash") values ($1, $2)',
    [TEXT, DIGEST],
    driver,
  );
}

describe('database errors in the logs', () => {
  it('keep the statement, the driver message, code and constraint, and lose the parameters and the row', () => {
    const line = logged((log) => log.error({ err: failedInsert() }, 'query failed'));
    const entry = JSON.parse(line);
    expect(entry.err.type).toBe('DrizzleQueryError');
    expect(entry.err.query).toBe('insert into "posts" ("text", "key_hash") values ($1, $2)');
    expect(entry.err.message).toContain('violates unique constraint "accounts_email_unique"');
    expect(entry.err.stack).toMatch(/\n {4}at /);
    expect(entry.err.params).toBeUndefined();
    for (const secret of ['A private post', 'two lines', 'a@example.com', DIGEST])
      expect(line).not.toContain(secret);
  });

  it('are made safe under any key, as a cause, inside an AggregateError and as the only argument', () => {
    const wrapped = new Error('could not save', { cause: failedInsert() });
    const lines = logged((log) => {
      log.warn({ error: failedInsert(), job: { last: wrapped } }, 'sweep failed');
      log.error(new AggregateError([failedInsert()], 'several failed'));
      log.error(failedInsert());
    });
    expect(lines.split('\n').filter(Boolean)).toHaveLength(3);
    expect(lines).toContain('could not save');
    for (const secret of ['A private post', 'a@example.com', DIGEST]) expect(lines).not.toContain(secret);
  });

  it('drop a value PostgreSQL quotes at the end of a data error', () => {
    const err = Object.assign(new Error('invalid input syntax for type uuid: "kit_sk_live_secret"'), {
      code: '22P02',
    });
    const line = logged((log) => log.error({ err }, 'bad value'));
    expect(line).toContain('invalid input syntax for type uuid: [value]');
    expect(line).not.toContain('kit_sk_live_secret');
  });
});

import type { Db, DbOrTx } from '../db/client.ts';
import type { SweepName } from './sweep-names.ts';
import type { Wake } from './wake.ts';

/*
 * What a handle carries, so this module keeps nothing of its own: the process's database handle
 * (made once by createDeps) its wake, and each open transaction (and savepoint) the sweeps to
 * wake once the outermost one commits.
 */
const WAKE = Symbol('wake');
const QUEUED = Symbol('wakes after commit');

interface Carries {
  [WAKE]?: Wake;
  [QUEUED]?: Set<SweepName>;
}

const carried = (handle: DbOrTx | { transaction: Transaction }) => handle as Carries;

/**
 * Wakes `sweep` once the rows just written through `db` are visible to it: at once outside a
 * transaction, after COMMIT inside one. Waking any earlier would let the sweep look before the
 * rows exist on PostgreSQL and then sleep until its next poll; a rolled-back transaction wakes
 * nothing. On a database not made with `wakeOnCommit` (a bare test handle) it does nothing:
 * the sweep's poll still finds the rows.
 */
export function wakeAfterCommit(db: DbOrTx, sweep: SweepName): void {
  const pending = carried(db)[QUEUED];
  if (pending) pending.add(sweep);
  else carried(db)[WAKE]?.(sweep);
}

type Transaction = Db['transaction'];

/** Makes `owner.transaction` hand its work a handle that queues wakes into `sweeps`. */
function queueInto(owner: { transaction: Transaction }, sweeps: Set<SweepName>): void {
  const begin = owner.transaction.bind(owner) as Transaction;
  owner.transaction = ((work, config) =>
    begin((tx) => {
      carried(tx)[QUEUED] = sweeps;
      // A savepoint's wakes wait for the outermost commit too.
      queueInto(tx, sweeps);
      return work(tx);
    }, config)) as Transaction;
}

/**
 * Prepares the process's database handle, once, when the dependencies are built: wakes
 * queued with `wakeAfterCommit` inside `db.transaction(...)` fire after it commits.
 */
export function wakeOnCommit(db: Db, wake: Wake): Db {
  carried(db)[WAKE] = wake;
  const begin = db.transaction.bind(db) as Transaction;
  db.transaction = (async (work, config) => {
    const sweeps = new Set<SweepName>();
    const result = await begin((tx) => {
      carried(tx)[QUEUED] = sweeps;
      queueInto(tx, sweeps);
      return work(tx);
    }, config);
    for (const sweep of sweeps) wake(sweep);
    return result;
  }) as Transaction;
  return db;
}

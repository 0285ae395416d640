import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { goldenDigests } from './lib/score-golden.ts';

/**
 * Writes test/intelligence/score-golden.json: digests of what the scorer returns for every real
 * post (scripts/lib/score-golden.ts). Run it only after a deliberate change to scoring (and bump
 * RULES_VERSION); an optimisation must leave the committed digests as they are.
 */
const digests = await goldenDigests();
const file = join(import.meta.dirname, '../test/intelligence/score-golden.json');
writeFileSync(file, `${JSON.stringify(digests, null, 2)}\n`);
console.log(`${file}\n${JSON.stringify(digests, null, 2)}`);

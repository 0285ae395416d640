import Fastify from 'fastify';

/**
 * The baseline: a bare Fastify route answering the same JSON as `GET /v1/account`, with no
 * auth, rate limit, validation or database. Ratios in the benchmarks are measured against it.
 */
const body = {
  account: { id: 'acc_XXXXXXXXXXXXXXXXXXXX', email: 'bench@example.com', plan: 'free' },
  key: {
    id: 'key_XXXXXXXXXXXXXXXXXXXX',
    name: 'default',
    keyPrefix: 'kit_sk_XXXXXXXX',
    createdAt: 1_700_000_000_000,
    lastUsedAt: 1_700_000_000_000,
    revokedAt: null,
  },
};
const app = Fastify({ logger: false });
app.get('/v1/account', async () => body);
app.post('/v1/score', async () => JSON.parse(process.env.BASELINE_SCORE_BODY ?? '{}'));
const url = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`listening on ${url}`);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));

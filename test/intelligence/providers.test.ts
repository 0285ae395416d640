import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, configWith } from '../../src/config/config.ts';
import { createModelClient, languageModelFor } from '../../src/scoring/model/client.ts';
import { startService } from '../../src/server.ts';
import { startTestApp } from '../helpers/app.ts';
import { type FakeModel, startFakeModel } from './fake-model.ts';

let fake: FakeModel;
beforeAll(async () => {
  fake = await startFakeModel();
});
afterAll(async () => {
  await fake?.close();
});

describe('provider configuration', () => {
  it('is offline by default and names the missing variable otherwise', () => {
    expect(createModelClient(configWith({}))).toBeNull();
    const missing = (env: Record<string, string>) => {
      try {
        languageModelFor(configWith(env));
        return null;
      } catch (err) {
        return err instanceof ConfigError ? err.issues[0]!.variable : String(err);
      }
    };
    expect(missing({ LLM_PROVIDER: 'openai' })).toBe('LLM_API_KEY');
    expect(missing({ LLM_PROVIDER: 'anthropic' })).toBe('LLM_API_KEY');
    expect(missing({ LLM_PROVIDER: 'openai-compatible', LLM_MODEL: 'm' })).toBe('LLM_BASE_URL');
    expect(missing({ LLM_PROVIDER: 'openai-compatible', LLM_BASE_URL: fake.url })).toBe('LLM_MODEL');
    expect(languageModelFor(configWith({ LLM_PROVIDER: 'openai', LLM_API_KEY: 'k' }))?.id).toBe(
      'openai:gpt-4o-mini',
    );
    expect(
      languageModelFor(configWith({ LLM_PROVIDER: 'anthropic', LLM_API_KEY: 'k', LLM_MODEL: 'claude-x' }))
        ?.id,
    ).toBe('anthropic:claude-x');
  });

  it('refuses to start a service whose provider is missing its key', async () => {
    // Checked before any pool opens, so nothing is left behind.
    const config = configWith({ LLM_PROVIDER: 'openai', DATABASE_URL: 'memory://', LOG_LEVEL: 'silent' });
    await expect(startService(config, { listen: false, autoStartRunner: false })).rejects.toBeInstanceOf(
      ConfigError,
    );
  });

  it('scores through the openai provider against an OpenAI-style endpoint', async () => {
    const t = await startTestApp({
      LLM_PROVIDER: 'openai',
      LLM_API_KEY: 'sk-test',
      LLM_BASE_URL: fake.url,
      LLM_MODEL: 'gpt-test',
    });
    try {
      const { apiKey } = await t.signup();
      const before = fake.callsFor('judge');
      const res = await t.request('POST', '/v1/score', {
        key: apiKey,
        body: { post: 'I shipped the billing rewrite today.' },
      });
      expect(res.status).toBe(200);
      expect(fake.callsFor('judge')).toBe(before + 1);
      expect(fake.calls.at(-1)!.request.model).toBe('gpt-test');
      // The model's note on the opening speaks for a concept the rules already speak for: one say per concept.
      expect(res.body.signals.filter((s: { concept: string }) => s.concept === 'opening')).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});

import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError, generateText, type LanguageModel, Output } from 'ai';
import type { z } from 'zod';
import { type Config, ConfigError } from '../../config/config.ts';
import { UpstreamFailed } from '../../domain/errors.ts';

/**
 * The one door to a language model: typed structured output through the Vercel AI SDK,
 * validated by zod, plus an optional semantic check. Malformed output (unparseable, off
 * schema, or failing the check) gets exactly one retry that tells the model what was
 * wrong; a timeout, a provider error or a second malformed answer is an upstream failure, `model_error`.
 * The SDK's own retries are off so one request costs at most two model calls.
 */

export interface ModelRequest<T> {
  /** Names the output for the provider and the logs: judge, rewrite, generate, plan, voice. */
  task: string;
  schema: z.ZodType<T>;
  instructions: string;
  prompt: string;
  temperature?: number;
  /** A problem with a schema-valid answer (e.g. an invented fact), or null when it is fine. */
  check?: (value: T) => string | null;
  /**
   * What to return when the retried answer still fails `check`, instead of a `model_error`: the
   * caller keeps the well-formed answer and mends it itself (drafts that fail their checks are
   * replaced by offline ones, judge notes that break the note rules are dropped).
   */
  settle?: (value: T, problem: string) => T;
}

export interface ModelClient {
  /** `<provider>:<model>`; part of cache keys and reported by /v1/meta. */
  readonly id: string;
  generate<T>(request: ModelRequest<T>): Promise<T>;
}

/** An upstream failure whose message names what happened and never the provider's internals. */
export class ModelError extends UpstreamFailed {
  /** True when the answers were well-formed but failed the request's semantic check twice. */
  readonly checkFailed: boolean;
  constructor(message: string, detail: string, checkFailed = false) {
    super('model_error', message, { cause: detail });
    this.checkFailed = checkFailed;
  }
}

const DEFAULT_MODELS: Record<string, string> = {
  openai: 'gpt-4o-mini',
  anthropic: 'claude-3-5-haiku-latest',
};

function isTimeout(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const name = (e as { name?: string }).name;
    if (name === 'TimeoutError' || name === 'AbortError') return true;
  }
  return false;
}

/** The SDK's errors for output that is not JSON, not on schema, or missing. */
const MALFORMED = /NoObjectGenerated|NoOutputGenerated|TypeValidation|JSONParse|NoContentGenerated/;

function isMalformed(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (MALFORMED.test((e as { name?: string }).name ?? '')) return true;
  }
  return false;
}

function statusOf(err: unknown): number | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (APICallError.isInstance(e)) return e.statusCode;
  }
  return undefined;
}

/** Builds the SDK model for the configured provider, or null for the offline heuristic engine. */
export function languageModelFor(config: Config): { id: string; model: LanguageModel } | null {
  const provider = config.LLM_PROVIDER;
  if (provider === 'heuristic') return null;
  const modelId = config.LLM_MODEL ?? DEFAULT_MODELS[provider];
  const missing = (variable: string, message: string) => new ConfigError([{ variable, message }]);
  if (!modelId) throw missing('LLM_MODEL', `required when LLM_PROVIDER=${provider}`);
  const apiKey = config.LLM_API_KEY;
  const baseURL = config.LLM_BASE_URL;
  let model: LanguageModel;
  if (provider === 'openai') {
    if (!apiKey && !baseURL) throw missing('LLM_API_KEY', 'required when LLM_PROVIDER=openai');
    // Chat Completions: what OpenAI, Azure-style gateways and proxies behind LLM_BASE_URL all speak.
    model = createOpenAI({ apiKey: apiKey ?? 'unused', baseURL }).chat(modelId);
  } else if (provider === 'anthropic') {
    if (!apiKey && !baseURL) throw missing('LLM_API_KEY', 'required when LLM_PROVIDER=anthropic');
    model = createAnthropic({ apiKey: apiKey ?? 'unused', baseURL })(modelId);
  } else {
    if (!baseURL)
      throw missing(
        'LLM_BASE_URL',
        'required when LLM_PROVIDER=openai-compatible (e.g. http://127.0.0.1:11434/v1)',
      );
    model = createOpenAICompatible({
      name: 'openai-compatible',
      baseURL,
      apiKey,
      // Ollama, vLLM and LM Studio accept response_format json_schema.
      supportsStructuredOutputs: true,
    }).chatModel(modelId);
  }
  return { id: `${provider}:${modelId}`, model };
}

export function createModelClient(config: Config): ModelClient | null {
  const built = languageModelFor(config);
  if (!built) return null;
  const { id, model } = built;
  const timeoutMs = config.LLM_TIMEOUT_MS;
  return {
    id,
    async generate<T>(request: ModelRequest<T>): Promise<T> {
      let prompt = request.prompt;
      let problem = '';
      let fromCheck = false;
      let last: { value: T } | null = null;
      for (let attempt = 1; attempt <= 2; attempt++) {
        let value: T;
        try {
          const result = await generateText({
            model,
            instructions: request.instructions,
            prompt,
            output: Output.object({ name: request.task, schema: request.schema }),
            temperature: request.temperature ?? 0,
            maxRetries: 0,
            abortSignal: AbortSignal.timeout(timeoutMs),
          });
          value = result.output as T;
        } catch (err) {
          if (isTimeout(err)) {
            throw new ModelError(
              `The model did not answer within ${timeoutMs} ms; retry the request.`,
              String(err),
            );
          }
          if (isMalformed(err)) {
            const cause = (err as { cause?: unknown }).cause;
            fromCheck = false;
            problem = `the answer was not valid JSON for the ${request.task} schema (${cause instanceof Error ? cause.message.slice(0, 300) : 'parse error'})`;
            prompt = `${request.prompt}\n\nYour previous answer was rejected: ${problem}. Answer again with JSON that matches the schema exactly.`;
            continue;
          }
          const status = statusOf(err);
          throw new ModelError(
            status
              ? `The model provider answered with HTTP ${status}; retry the request shortly.`
              : 'The model provider could not be reached; retry the request shortly.',
            err instanceof Error ? `${err.name}: ${err.message}` : String(err),
          );
        }
        const issue = request.check?.(value) ?? null;
        if (issue === null) return value;
        problem = issue;
        fromCheck = true;
        last = { value };
        prompt = `${request.prompt}\n\nYour previous answer was rejected: ${issue}. Answer again and fix exactly that.`;
      }
      if (fromCheck && last && request.settle) return request.settle(last.value, problem);
      throw new ModelError(
        'The model returned malformed output twice; retry the request.',
        `${request.task}: ${problem}`,
        fromCheck,
      );
    },
  };
}

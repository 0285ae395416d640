import { z } from 'zod';

/**
 * The whole runtime configuration, parsed once from the environment in `src/main.ts`
 * and passed down. No other module reads `process.env`.
 */

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const positiveInt = z.coerce.number().int().positive();
const positiveNumber = z.coerce.number().positive();

/** An env var that is unset or empty counts as unset. */
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const base64Key = optionalString.refine(
  (v) => v === undefined || Buffer.from(v, 'base64').length === 32,
  'must be base64 of exactly 32 bytes (generate one with: openssl rand -base64 32)',
);

export const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: optionalString.refine(
    (v) => v === undefined || /^postgres(ql)?:\/\//.test(v) || v === 'memory://',
    'must be a postgres:// or postgresql:// URL',
  ),
  DATABASE_POOL_MAX: positiveInt.default(10),
  REDIS_URL: optionalString.refine(
    (v) => v === undefined || /^rediss?:\/\//.test(v),
    'must be a redis:// or rediss:// URL',
  ),
  KIT_ROLE: z.enum(['api', 'worker', 'all']).default('all'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `auto`: one pretty line per entry when stdout is a terminal, JSON lines otherwise. */
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  PUBLIC_BASE_URL: optionalString,
  /**
   * Where invitations are also mailed (smtp://user:pass@host:587, STARTTLS when offered, or
   * `?tls=required`; smtps:// for TLS from the start). Unset: the inviter sends the link.
   */
  SMTP_URL: optionalString.refine(
    (v) => v === undefined || /^smtps?:\/\/[^/]/.test(v),
    'must be an smtp:// or smtps:// URL, e.g. smtp://user:password@mail.example.com:587',
  ),
  /** The sender of those mails; default postkit@ the host of PUBLIC_BASE_URL (or localhost). */
  SMTP_FROM: optionalString.refine(
    (v) => v === undefined || /^[^\s@<>]+@[^\s@<>]+$/.test(v),
    'must be a mail address such as postkit@example.com',
  ),

  KIT_VAULT_KEY: base64Key,
  KIT_VAULT_OLD_KEYS: optionalString.refine(
    (v) =>
      v === undefined ||
      v.split(',').every((k) => !k.trim() || Buffer.from(k.trim(), 'base64').length === 32),
    'must be a comma-separated list of base64 keys of exactly 32 bytes each',
  ),

  PLATFORMA_CLIENT_ID: optionalString,
  PLATFORMA_CLIENT_SECRET: optionalString,
  PLATFORMA_REDIRECT_URI: optionalString,
  PLATFORMA_AUTH_URL: z.url().default('https://www.linkedin.com/oauth/v2'),
  PLATFORMA_API_URL: z.url().default('https://api.linkedin.com'),
  PLATFORMA_API_VERSION: z
    .string()
    .regex(/^\d{6}$/, 'must be YYYYMM')
    .default('202510'),
  PLATFORMA_PKCE: bool.default(true),
  /** Multiplies the platformA adapter's retry and video-poll delays (tests set 0.001). */
  PLATFORMA_BACKOFF_SCALE: positiveNumber.default(1),

  PLATFORMB_CLIENT_ID: optionalString,
  PLATFORMB_CLIENT_SECRET: optionalString,
  PLATFORMB_REDIRECT_URI: optionalString,
  PLATFORMB_AUTH_URL: z.url().default('https://x.com/i/oauth2'),
  PLATFORMB_TOKEN_URL: z.url().default('https://api.x.com/2/oauth2/token'),
  PLATFORMB_API_URL: z.url().default('https://api.x.com'),
  /** Multiplies the platformB adapter's retry and media-poll delays (tests set 0.001). */
  PLATFORMB_BACKOFF_SCALE: positiveNumber.default(1),
  /**
   * How many of a member's most recent posts platformB's timeline lists (the live platform's
   * 3,200): crash recovery cannot look up a create older than that window.
   */
  PLATFORMB_TIMELINE_LIMIT: positiveInt.default(3_200),
  /** Public post addresses, `{id}` for the post's id; unset: the live sites'. The sandbox sets its own pages. */
  PLATFORMA_POST_URL: z.url().optional(),
  PLATFORMB_POST_URL: z.url().optional(),

  LLM_PROVIDER: z.enum(['heuristic', 'openai', 'anthropic', 'openai-compatible']).default('heuristic'),
  LLM_MODEL: optionalString,
  LLM_BASE_URL: optionalString,
  LLM_API_KEY: optionalString,
  LLM_TIMEOUT_MS: positiveInt.default(30_000),

  SWEEP_INTERVAL_MS: positiveInt.default(60_000),
  /** A publish claim not renewed for this long belongs to a dead process and is recovered. */
  PUBLISH_LEASE_MS: positiveInt.default(60_000),
  /**
   * Posts one worker process publishes at the same time. Each waits mostly on the platform,
   * and claims and outcomes are written in batches, so a burst goes faster with more in flight:
   * the batches grow with it, and with them fewer statements and commits per post
   * (docs/decisions.md). A worker that dies keeps its claims (the posts in flight and those
   * claimed ahead for the next slots) until their lease lapses.
   */
  PUBLISH_CONCURRENCY: positiveInt.default(64),
  /**
   * How often a worker looks for posts scheduled by other processes while their wakes cannot
   * reach it (LISTEN/NOTIFY down; see docs/publishing.md). With them it sleeps until a post is due.
   */
  PUBLISH_POLL_MS: positiveInt.default(1_000),
  /**
   * Multiplies the backoff between crash recovery's look-ups of a create in doubt while the
   * platform cannot answer yet (the jobs kit's LOOKUP_RETRY; tests set 0.01).
   */
  LOOKUP_BACKOFF_SCALE: positiveNumber.default(1),
  WEBHOOK_ALLOW_PRIVATE: bool.default(false),
  /**
   * Lets webhook receivers on this machine in (`http://` or `https://` to localhost, 127.0.0.1
   * or ::1) while every other address stays guarded: for trying webhooks locally (`npm run demo`).
   */
  WEBHOOK_ALLOW_LOOPBACK: bool.default(false),
  /**
   * A webhook receiver on this machine that lists what it received (`npm run demo` serves one and
   * sets this), offered by the console's Webhooks page as an endpoint to try; unset elsewhere.
   */
  WEBHOOK_DEMO_RECEIVER_URL: z.url().optional(),
  WEBHOOK_BACKOFF_SCALE: positiveNumber.default(1),
  /**
   * OAuth clients that name themselves by a client ID metadata document (an https URL as
   * client_id): the fetch of that document gets this long in all, and at most this many bytes.
   */
  OAUTH_CLIENT_METADATA_TIMEOUT_MS: positiveInt.default(5_000),
  OAUTH_CLIENT_METADATA_MAX_BYTES: positiveInt.default(5_120),
  /**
   * Test-only: lets metadata documents be served from this machine (localhost, 127.0.0.1, ::1)
   * over https, trusting OAUTH_CLIENT_METADATA_TEST_CA (a PEM certificate) instead of the
   * system's authorities. Every other address stays guarded as webhooks are.
   */
  OAUTH_CLIENT_METADATA_ALLOW_LOOPBACK: bool.default(false),
  OAUTH_CLIENT_METADATA_TEST_CA: optionalString,
  WEBHOOK_TIMEOUT_MS: positiveInt.default(10_000),
  /** How often the delivery sweep looks for new deliveries recorded by other processes. */
  WEBHOOK_POLL_MS: positiveInt.default(1_000),
  /** Published posts whose metrics one sweep run polls (least recently polled first). */
  METRICS_POLL_BUDGET: positiveInt.default(50),
  /** A post is polled again at most this often by the metrics sweep. */
  METRICS_MIN_POLL_INTERVAL_MS: positiveInt.default(3_600_000),
  /**
   * Metric snapshots older than this many days are pruned (0 keeps them all). Each post keeps
   * its latest snapshot and the ones around 1 h, 24 h and 7 d after publishing (content decay).
   */
  METRICS_SNAPSHOT_RETENTION_DAYS: z.coerce.number().int().min(0).default(90),

  /** How long an authenticated key is trusted in-process before re-reading it (0 = every request). */
  AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).default(5_000),
  RATE_LIMIT_REQUESTS_PER_MIN: positiveInt.default(600),
  RATE_LIMIT_MODEL_PER_MIN: positiveInt.default(30),
  RATE_LIMIT_SIGNUPS_PER_HOUR: positiveInt.default(10),
  /** Console sign-in attempts per hour, per client address and per email (POST /v1/sessions). */
  RATE_LIMIT_SIGNINS_PER_HOUR: positiveInt.default(20),
  /** Failed authentications per client address per minute before 429 (in memory, per process). */
  AUTH_FAILURES_PER_MIN: positiveInt.default(60),
  FREE_PLAN_MODEL_QUOTA: z.coerce.number().int().min(0).default(200),

  MEDIA_MAX_IMAGE_MB: positiveNumber.default(10),
  MEDIA_MAX_GIF_MB: positiveNumber.default(15),
  MEDIA_MAX_PDF_MB: positiveNumber.default(100),
  MEDIA_MAX_VIDEO_MB: positiveNumber.default(500),
  S3_BUCKET: optionalString,
  S3_ENDPOINT: optionalString,
  S3_REGION: optionalString,
  AWS_REGION: optionalString,
  AWS_ACCESS_KEY_ID: optionalString,
  AWS_SECRET_ACCESS_KEY: optionalString,
  AWS_SESSION_TOKEN: optionalString,

  /**
   * Operator metrics (Prometheus text at GET /metrics). Neither set: not served. METRICS_PORT
   * serves them on their own port (any role, workers included; 0 = any free port); otherwise
   * METRICS_TOKEN serves them on the main port to `Authorization: Bearer <token>` only.
   */
  METRICS_PORT: optionalString.pipe(z.coerce.number<string | undefined>().int().min(0).max(65535).optional()),
  METRICS_TOKEN: optionalString.refine(
    (v) => v === undefined || v.length >= 16,
    'must be at least 16 characters (generate one with: openssl rand -hex 24)',
  ),
  /** Connected channels that need reconnecting within this many hours are counted for alerts. */
  METRICS_EXPIRY_WARNING_HOURS: positiveInt.default(72),

  /** Largest JSON body accepted, in bytes (uploads have their own per-type limits). */
  BODY_LIMIT_BYTES: positiveInt.default(1_048_576),
  SHUTDOWN_GRACE_MS: positiveInt.default(10_000),
});

export type Config = z.output<typeof configSchema>;

export class ConfigError extends Error {
  readonly issues: { variable: string; message: string }[];
  constructor(issues: { variable: string; message: string }[]) {
    super(
      `Invalid configuration:\n${issues.map((i) => `  ${i.variable}: ${i.message}`).join('\n')}\nFix the variable(s) above and start again.`,
    );
    this.name = 'ConfigError';
    this.issues = issues;
  }
}

/** Parses an environment (normally `process.env`); throws ConfigError naming each bad variable. */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const result = configSchema.safeParse(env);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => ({
        variable: String(issue.path[0] ?? '(environment)'),
        message: issue.message,
      })),
    );
  }
  return result.data;
}

/**
 * For entry points (the service, scripts): parses the environment, or writes the message naming
 * each bad variable to stderr and returns null so the caller exits with its own code.
 */
export function parseConfigOrReport(env: Record<string, string | undefined>): Config | null {
  try {
    return parseConfig(env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    return null;
  }
}

/** Builds a config from defaults plus overrides; used by tests, benchmarks and the sandbox. */
export function configWith(overrides: Record<string, string | undefined> = {}): Config {
  return parseConfig(overrides);
}

import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { type Budget, enforceBudget, hitBudgetNow, hitBudgets } from '../api/rate-limit.ts';
import { requireRole, requireScope } from '../caller.ts';
import type { AppDeps, Caller } from '../context.ts';
import { type Role, roleNeeded } from '../domain/roles.ts';
import { isWellFormedApiKey } from '../features/keys/key-format.ts';
import { cachedCaller, callerForDigest } from '../features/keys/key-lookup.ts';
import { baseUrlOf, mcpResourceOf } from '../features/oauth/issuer.ts';
import { isAccessToken } from '../features/oauth/oauth-secrets.ts';
import { callerForAccessToken } from '../features/oauth/token.service.ts';
import {
  CSRF_HEADER,
  csrfMatches,
  isSessionToken,
  SESSION_COOKIE,
  sessionTokenIn,
} from '../features/sessions/session-token.ts';
import { callerForSession } from '../features/sessions/sessions.service.ts';
import type { WindowHit } from '../kv/kv.ts';
import { sha256Hex } from '../lib/hash.ts';
import type { AuthThrottle } from './auth-throttle.ts';
import { bearerTokenOf } from './bearer.ts';
import { AppError, unauthorized } from './errors.ts';
import { budgetsOf, budgetsOfCached } from './key-budgets.ts';
import type { RouteAccess, RouteScope } from './route-config.ts';

/** The token of a `Bearer <token>` header, or throws 401. */
function bearerToken(header: string | undefined): string {
  if (!header) throw unauthorized();
  const token = bearerTokenOf(header);
  if (token === null) throw unauthorized('The Authorization header must be `Bearer <key>`.');
  return token;
}

const malformedKey = () => unauthorized('That is not a valid API key (bad format or checksum).');

/**
 * The digest the caller's rate budgets are keyed by: the API key's, or for an OAuth-connected
 * app its grant's (access tokens change every few minutes; the budget must not).
 */
export function budgetDigestOf(caller: Caller, header: string | undefined): string {
  if (caller.grantId) return sha256Hex(`grant:${caller.grantId}`);
  if (caller.session) return sha256Hex(`session:${caller.session.id}`);
  return sha256Hex(bearerToken(header));
}

/**
 * 403 forbidden when the caller's member lacks the route's role, else 403 insufficient_scope
 * when the credential lacks its scope (scopes narrow a role, never widen it), else null.
 */
function accessRefusal(caller: Caller, scope: RouteScope, role: Role): unknown {
  try {
    requireRole(caller, role);
    if (scope !== 'any') requireScope(caller, scope);
    return null;
  } catch (err) {
    return err;
  }
}

declare module '../context.ts' {
  interface ProcessMemory {
    /** Failed authentications per client address, keys known not to exist (auth-throttle.ts). */
    authThrottle: AuthThrottle;
    /** Key lookups under way, by digest: a burst of one key (valid or not) costs one database read. */
    keyLookupsInFlight: Map<string, Promise<Caller | null>>;
  }
}

/**
 * Every route is protected unless its config says `public`. The hook authenticates, builds
 * the request's service context and spends the overall budget (and the model budget on
 * model-backed routes), setting the x-ratelimit-* headers. For a key in the process's cache
 * with budget units leased by this process, nothing leaves the process; otherwise the budget
 * reservation is the only store call; a key not in the cache is looked up first (one
 * database read, then cached), so a key that does not exist never gets budget state. Failed
 * authentications are throttled per client address in memory (auth-throttle.ts).
 */
export function registerAuth(app: FastifyInstance, deps: AppDeps) {
  const throttle = deps.memory.authThrottle;
  app.decorateRequest('ctx', null as never);
  const access: RouteAccess[] = [];
  app.decorate('routeAccess', access);
  // Attached to each protected route as it is registered (before the route's own onRequest
  // hooks), so a request reads no route options to find out whether it needs a key.
  app.addHook('onRoute', (route) => {
    const config = route.config ?? {};
    if (config.public || route.url === '/docs' || route.url.startsWith('/docs/')) return;
    const own = route.onRequest ? [route.onRequest].flat() : [];
    if (own.some((hook) => AUTH_HOOK in hook)) return;
    // Every protected route states what a key must hold to call it: a route without a scope
    // would be callable by a read-only key, so the app refuses to start with one.
    if (!config.scope)
      throw new Error(
        `${[route.method].flat().join(',')} ${route.url} declares no scope: add config.scope ('read', 'write', 'publish' or 'any'; see src/domain/scopes.ts)`,
      );
    const role = roleNeeded(config.scope, config.role);
    for (const method of [route.method].flat())
      access.push({ method, url: route.url, scope: config.scope, role });
    route.onRequest = [
      authHook(deps, throttle, {
        modelBudget: config.modelBudget === true,
        scope: config.scope,
        role,
        mcpResource: config.mcpResource === true,
      }),
      ...own,
    ];
  });
}

const AUTH_HOOK = Symbol('auth hook');
const BEARER_PREFIX = 'Bearer ';

interface RouteAuth {
  modelBudget: boolean;
  scope: RouteScope;
  role: Role;
  /** Accepts OAuth access tokens bound to the MCP resource. */
  mcpResource: boolean;
}

/** A callback hook, not an async one: the hot path below completes without a promise. */
function authHook(deps: AppDeps, throttle: AuthThrottle, route: RouteAuth): onRequestHookHandler {
  const { modelBudget, scope, role } = route;
  const hook: onRequestHookHandler = (request, reply, done) => {
    const header = request.headers.authorization;
    // The console's session cookie, for REST routes, when no Authorization header is sent
    // (a program's key always wins). /mcp takes keys and access tokens only.
    if (header === undefined && !route.mcpResource) {
      const sessionToken = sessionTokenIn(request.headers.cookie);
      if (sessionToken !== undefined) {
        authenticateSession(deps, throttle, request, reply, sessionToken, route).then(() => done(), done);
        return;
      }
    }
    // The common shape, `Bearer <key>`, is hashed before it is parsed: when this process has the
    // digest cached, the token is that key (SHA-256), so the header holds nothing to check.
    let unparsed: string | undefined;
    let digest: string | undefined;
    if (header?.startsWith(BEARER_PREFIX)) {
      unparsed = header.slice(BEARER_PREFIX.length);
      digest = sha256Hex(unparsed);
      const known = cachedCaller(deps, digest);
      if (known) return admitKnown(request, reply, done, known, digest);
    }
    let key: string;
    try {
      key = bearerToken(header);
    } catch (err) {
      return refuse(done, failedAuthentication(throttle, request.ip, err));
    }
    if (isAccessToken(key)) {
      if (!route.mcpResource) return refuse(done, unauthorized(ACCESS_TOKEN_ELSEWHERE));
      authenticateAccessToken(deps, throttle, request, reply, key, route).then(() => done(), done);
      return;
    }
    if (key !== unparsed) digest = sha256Hex(key);
    const caller = cachedCaller(deps, digest!);
    if (caller) return admitKnown(request, reply, done, caller, digest!);
    // Checked only now: the checksum is for keys this process does not know.
    if (!isWellFormedApiKey(key))
      return refuse(done, failedAuthentication(throttle, request.ip, malformedKey()));
    authenticateThen(request, reply, done, digest!);
  };

  /**
   * The hot path: a key this process knows (so well-formed: only existing keys are cached) and
   * a unit of each budget the route spends held by this process (src/api/budget-leases.ts): no
   * store, no database, nothing awaited.
   */
  const admitKnown = (
    request: FastifyRequest,
    reply: FastifyReply,
    done: (err?: Error) => void,
    caller: Caller,
    digest: string,
  ) => {
    const budgets = budgetsOfCached(deps, caller, digest);
    const hit = hitBudgetNow(deps.memory.budgetLeases, budgets.requests);
    if (!hit) return authenticateThen(request, reply, done, digest);
    request.ctx = { deps, caller, requestId: request.id, log: request.log };
    if (!modelBudget) return admit(reply, done, caller, scope, role, budgets.requests, hit);
    const modelHit = hitBudgetNow(deps.memory.budgetLeases, budgets.model);
    if (modelHit)
      return admit(reply, done, caller, scope, role, budgets.requests, hit, budgets.model, modelHit);
    // The request's unit is spent; only the model unit needs the store.
    hitBudgets(deps.memory.budgetLeases, [budgets.model], request.log).then(
      ([fromStore]) =>
        admit(reply, done, caller, scope, role, budgets.requests, hit, budgets.model, fromStore ?? null),
      done,
    );
  };

  /** The rest: a key to look up, or budget units to reserve from the store. */
  const authenticateThen = (
    request: FastifyRequest,
    reply: FastifyReply,
    done: (err?: Error) => void,
    digest: string,
  ) => {
    authenticate(deps, throttle, request, reply, digest, modelBudget).then(() => {
      const refusal = accessRefusal(request.ctx.caller, scope, role);
      done(refusal ? (refusal as Error) : undefined);
    }, done);
  };
  return Object.assign(hook, { [AUTH_HOOK]: true });
}

/**
 * A known caller with its units: the rate-limit headers (a spent budget refuses with 429, the
 * request budget first), then the route's role and scope.
 */
function admit(
  reply: FastifyReply,
  done: (err?: Error) => void,
  caller: Caller,
  scope: RouteScope,
  role: Role,
  budget: Budget,
  hit: WindowHit | null,
  modelBudget?: Budget,
  modelHit?: WindowHit | null,
): void {
  try {
    enforceBudget(reply, budget, hit);
    if (modelBudget) enforceBudget(reply, modelBudget, modelHit ?? null);
  } catch (err) {
    refuse(done, err);
    return;
  }
  const refusal = accessRefusal(caller, scope, role);
  if (refusal) refuse(done, refusal);
  else done();
}

/** The rest: a key to look up, or budget units to reserve from the store. */
async function authenticate(
  deps: AppDeps,
  throttle: AuthThrottle,
  request: FastifyRequest,
  reply: FastifyReply,
  digest: string,
  modelBudget: boolean,
) {
  const all = budgetsOf(deps, digest);
  const spent = modelBudget ? [all.requests, all.model] : [all.requests];
  // A key this process knows: the lookup (cache) and the budget round trip run together.
  if (deps.authCache.get(digest)) {
    const [caller, hits] = await Promise.all([
      callerForDigest(deps, digest),
      hitBudgets(deps.memory.budgetLeases, spent, request.log),
    ]);
    if (!caller) throw unauthorized(UNKNOWN_KEY);
    request.ctx = { deps, caller, requestId: request.id, log: request.log };
    for (const [i, budget] of spent.entries()) enforceBudget(reply, budget, hits[i] ?? null);
    return;
  }
  // Otherwise the key must exist before anything is written for it (no budget keys for
  // guessed keys), and an address that keeps failing is refused before any lookup.
  const caller = await lookUpThrottled(deps, throttle, request.ip, digest);
  const hits = await hitBudgets(deps.memory.budgetLeases, spent, request.log);
  request.ctx = { deps, caller, requestId: request.id, log: request.log };
  for (const [i, budget] of spent.entries()) enforceBudget(reply, budget, hits[i] ?? null);
}

const ACCESS_TOKEN_ELSEWHERE =
  'This is an OAuth access token for the MCP endpoint (/mcp), which is the only place it works; the REST API takes an API key (kit_sk_…).';
const INVALID_ACCESS_TOKEN =
  'This access token is unknown, expired or revoked, or was issued for another resource; refresh it or sign in again.';

/**
 * An OAuth access token on /mcp: one database read (no cache, so revocation is immediate),
 * bound to this server's MCP resource (RFC 8707), budgets keyed by the grant.
 */
async function authenticateAccessToken(
  deps: AppDeps,
  throttle: AuthThrottle,
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
  route: RouteAuth,
) {
  const wait = throttle.blocked(request.ip);
  if (wait !== null) throw throttled(wait);
  const resource = mcpResourceOf(baseUrlOf(deps.config, request));
  const caller = await callerForAccessToken(deps, token, resource);
  if (!caller) {
    throttle.recordFailure(request.ip);
    throw unauthorized(INVALID_ACCESS_TOKEN);
  }
  const all = budgetsOf(deps, budgetDigestOf(caller, undefined));
  const spent = route.modelBudget ? [all.requests, all.model] : [all.requests];
  const hits = await hitBudgets(deps.memory.budgetLeases, spent, request.log);
  request.ctx = { deps, caller, requestId: request.id, log: request.log };
  for (const [i, budget] of spent.entries()) enforceBudget(reply, budget, hits[i] ?? null);
  const refusal = accessRefusal(caller, route.scope, route.role);
  if (refusal) throw refusal;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const SESSION_ENDED =
  'Your console session has ended (signed out, expired, or your membership was removed); sign in again.';

/**
 * A session cookie: one database read on every request (no cache, so a session ended or a
 * member removed stops at once in every process), then CSRF protection for unsafe methods
 * (docs/security.md, "Console sessions"), then budgets keyed by the session.
 */
async function authenticateSession(
  deps: AppDeps,
  throttle: AuthThrottle,
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
  route: RouteAuth,
) {
  const wait = throttle.blocked(request.ip);
  if (wait !== null) throw throttled(wait);
  const caller = isSessionToken(token) ? await callerForSession(deps, token) : null;
  if (!caller) {
    throttle.recordFailure(request.ip);
    throw new AppError(401, 'unauthorized', SESSION_ENDED, {
      headers: { 'set-cookie': clearedSessionCookie },
    });
  }
  if (!SAFE_METHODS.has(request.method)) refuseCrossSite(deps, request, token);
  const all = budgetsOf(deps, budgetDigestOf(caller, undefined));
  const spent = route.modelBudget ? [all.requests, all.model] : [all.requests];
  const hits = await hitBudgets(deps.memory.budgetLeases, spent, request.log);
  request.ctx = { deps, caller, requestId: request.id, log: request.log };
  for (const [i, budget] of spent.entries()) enforceBudget(reply, budget, hits[i] ?? null);
  const refusal = accessRefusal(caller, route.scope, route.role);
  if (refusal) throw refusal;
}

const clearedSessionCookie = `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`;

/**
 * CSRF: a cookie-authenticated POST, PUT, PATCH or DELETE must carry the session's CSRF token in
 * `x-csrf-token` (which a page of another origin cannot read), and an `Origin` header, when the
 * browser sends one, must be this service's own. SameSite=Strict on the cookie is a second wall.
 */
function refuseCrossSite(deps: AppDeps, request: FastifyRequest, token: string) {
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== baseUrlOf(deps.config, request))
    throw new AppError(
      403,
      'csrf_failed',
      'This request carries the console session cookie but comes from another site; it was refused.',
    );
  const presented = request.headers[CSRF_HEADER];
  if (!csrfMatches(token, typeof presented === 'string' ? presented : undefined))
    throw new AppError(
      403,
      'csrf_failed',
      `A request made with the console session cookie that changes something must send the session's CSRF token as the ${CSRF_HEADER} header (from POST /v1/sessions, or session.csrfToken of GET /v1/account).`,
    );
}

/**
 * A refusal answers a microtask later, as from an async hook: the rest of a request already
 * received is parsed first, so a malformed body is still a 400, not a 401.
 */
function refuse(done: (err?: Error) => void, err: unknown) {
  queueMicrotask(() => done(err as Error));
}

const UNKNOWN_KEY = 'This API key is unknown or has been revoked.';

const throttled = (retryAfterSeconds: number) =>
  new AppError(
    429,
    'rate_limited',
    `Too many failed authentications from this address; retry in ${retryAfterSeconds}s.`,
    { headers: { 'retry-after': String(retryAfterSeconds) } },
  );

/** A malformed key: 401 (it costs no store), counted against the address all the same. */
function failedAuthentication(throttle: AuthThrottle, address: string, err: unknown): unknown {
  const wait = throttle.blocked(address);
  if (wait !== null) return throttled(wait);
  throttle.recordFailure(address);
  return err;
}

/**
 * One database read per key at most: concurrent requests with the same key share it, and a key
 * found not to exist is remembered for a minute. Each request that fails counts once, checked
 * against the limit as it fails, so the number of 401s before the 429s is exact.
 */
async function lookUpThrottled(deps: AppDeps, throttle: AuthThrottle, address: string, digest: string) {
  const wait = throttle.blocked(address);
  if (wait !== null) throw throttled(wait);
  let caller: Caller | null = null;
  if (!throttle.isKnownUnknown(digest)) {
    const running = deps.memory.keyLookupsInFlight;
    const shared = running.get(digest);
    if (shared) caller = await shared;
    else {
      const lookup = callerForDigest(deps, digest);
      running.set(digest, lookup);
      throttle.begin(address);
      try {
        caller = await lookup;
      } finally {
        running.delete(digest);
        throttle.finish(address);
      }
    }
  }
  if (caller) return caller;
  throttle.rememberUnknown(digest);
  const now = throttle.blocked(address);
  if (now !== null) throw throttled(now);
  throttle.recordFailure(address);
  throw unauthorized(UNKNOWN_KEY);
}

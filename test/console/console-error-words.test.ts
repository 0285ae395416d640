import { describe, expect, it } from 'vitest';
import { ApiError, explainError } from '../../web/src/lib/errors.ts';

/** Error wording a newcomer met on the sign-in page and the Webhooks form. */
describe('errors in words, as a newcomer reads them', () => {
  it('a one-field error says its message once, not again as the detail', () => {
    const e = explainError(
      new ApiError(400, {
        error: {
          code: 'invalid_request',
          message: '`url` must use https:// (got http://).',
          details: [{ path: 'url', message: '`url` must use https:// (got http://).' }],
        },
      }),
    );
    expect(e.message).toBe('`url` must use https:// (got http://).');
  });

  it('a detail that adds something is still shown with its field', () => {
    const e = explainError(
      new ApiError(400, {
        error: {
          code: 'invalid_request',
          message: 'Invalid body.',
          details: [
            { path: 'body.runAt', message: 'must be in the future' },
            { path: 'body.text', message: '' },
          ],
        },
      }),
    );
    expect(e.message).toBe('Invalid body. (body.runAt: must be in the future)');
  });

  it('a key that is not accepted asks for a valid key, not to "sign out" of a page with no one signed in', () => {
    const e = explainError(
      new ApiError(401, { error: { code: 'unauthorized', message: 'That is not a valid API key.' } }),
    );
    expect(e.action).not.toMatch(/sign out/i);
    expect(e.action).toMatch(/valid key/);
  });
});

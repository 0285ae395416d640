/**
 * The one polling helper: calls `check` every `everyMs` until it returns a truthy value, which it
 * returns; after `deadlineMs` it throws naming `what`, so a test that waits for something that
 * never happens fails with a reason instead of hanging until vitest's timeout.
 */
export async function until<T>(
  what: string,
  check: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  deadlineMs = 60_000,
  everyMs = 25,
): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${deadlineMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

import { createHmac, randomBytes } from 'node:crypto';

/** A signing secret: prefixed so it is recognisable in a secret scanner, 256 random bits. */
export function generateSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** `sha256=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>` (CONTRACT.md section 6). */
export function signPayload(secret: string, timestampSeconds: number, rawBody: string): string {
  const mac = createHmac('sha256', secret).update(`${timestampSeconds}.${rawBody}`).digest('hex');
  return `sha256=${mac}`;
}

export interface DeliveryHeadersInput {
  secret: string;
  eventType: string;
  deliveryId: string;
  nowMs: number;
  rawBody: string;
}

/** Headers for one attempt; each attempt is signed afresh with its own timestamp. */
export function deliveryHeaders(input: DeliveryHeadersInput): Record<string, string> {
  const timestamp = Math.floor(input.nowMs / 1000);
  return {
    'content-type': 'application/json',
    'user-agent': 'Postkit-Webhooks/1',
    'x-kit-event': input.eventType,
    'x-kit-delivery': input.deliveryId,
    'x-kit-timestamp': String(timestamp),
    'x-kit-signature': signPayload(input.secret, timestamp, input.rawBody),
  };
}

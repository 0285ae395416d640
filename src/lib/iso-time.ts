/**
 * An instant as a person and a program both read it in an API message: ISO 8601 in UTC to the
 * second (`2027-01-12T09:30:00Z`), never an epoch number.
 */
export const isoTime = (epochMs: number): string => `${new Date(epochMs).toISOString().slice(0, 19)}Z`;

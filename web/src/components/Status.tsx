const WORDS: Record<string, string> = {
  draft: 'Draft',
  scheduled: 'Scheduled',
  publishing: 'Publishing…',
  published: 'Published',
  failed: 'Failed',
  canceled: 'Canceled',
  connected: 'Connected',
  expired: 'Expired',
  revoked: 'Disconnected',
  error: 'Needs reconnecting',
  active: 'Active',
  disabled: 'Disabled',
  pending: 'Pending',
  sending: 'Sending',
  delivered: 'Delivered',
  dead: 'Gave up',
};

export function Status({ value }: { value: string }) {
  return <span className={`badge ${value}`}>{WORDS[value] ?? value}</span>;
}

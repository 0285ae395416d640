/**
 * The additional authenticated data each sealed column is bound to. Every writer and the
 * re-seal command use these, so a value copied to another row or another column fails to
 * open instead of yielding someone else's secret.
 */
export const vaultAad = {
  /** channels.access_token_sealed / refresh_token_sealed: bound to the channel id and the column. */
  channelToken: (channelId: string, which: 'access' | 'refresh') => `channel:${channelId}:${which}`,
  /** oauth_states.code_verifier_sealed: bound to the state's digest. */
  oauthVerifier: (stateHash: string) => `oauth_state:${stateHash}:verifier`,
  /** webhooks.secret_sealed: bound to the endpoint id. */
  webhookSecret: (webhookId: string) => `webhook:${webhookId}:secret`,
} as const;

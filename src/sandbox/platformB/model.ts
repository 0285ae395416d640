/** The platformB sandbox's records: accounts, tokens, posts (with replies) and media uploads. */

export interface BMember {
  id: string;
  name: string;
  username: string;
}

export interface BToken {
  accessToken: string;
  userId: string;
  scopes: string[];
  expiresAt: number;
  revoked: boolean;
  /** The refresh-token family it belongs to (one per consent); a reused refresh token ends the family. */
  family: string;
}

export interface BRefreshToken {
  refreshToken: string;
  userId: string;
  scopes: string[];
  family: string;
  /** Set when it was exchanged: from then on it is dead (rotation). */
  usedAt: number | null;
  revoked: boolean;
}

export interface BAuthCode {
  code: string;
  redirectUri: string;
  userId: string;
  scopes: string[];
  codeChallenge: string;
  expiresAt: number;
  usedAt: number | null;
}

export interface BConsent {
  id: string;
  redirectUri: string;
  state: string | null;
  scopes: string[];
  codeChallenge: string;
  expiresAt: number;
}

/** public_metrics (all present) and non_public_metrics (null = not reported). */
export interface BMetrics {
  retweet_count: number;
  reply_count: number;
  like_count: number;
  quote_count: number;
  bookmark_count: number;
  impression_count: number;
  url_link_clicks: number | null;
  user_profile_clicks: number | null;
}

export interface BTweet {
  id: string;
  authorId: string;
  text: string;
  mediaIds: string[];
  /** The post this one replies to (a thread part or a first comment), or null. */
  replyTo: string | null;
  createdAt: number;
  deletedAt: number | null;
  metrics: BMetrics;
}

export type BMediaCategory = 'tweet_image' | 'tweet_gif' | 'tweet_video';
export type BMediaState = 'uploading' | 'pending' | 'in_progress' | 'succeeded' | 'failed';

export interface BMedia {
  id: string;
  ownerId: string;
  mediaType: string;
  category: BMediaCategory;
  totalBytes: number;
  /** Bytes of each appended segment, by index. */
  segments: Map<number, Buffer>;
  state: BMediaState;
  /** STATUS reads since finalize (processing completes after a configured number). */
  statusPolls: number;
  failProcessing: boolean;
  sha256: string | null;
  createdAt: number;
}

/** The sandbox's records: what a platform account, token, post and upload look like. */

export interface AMember {
  sub: string;
  name: string;
  givenName: string;
  familyName: string;
  email: string;
  picture: string;
}

export interface AToken {
  accessToken: string;
  refreshToken: string | null;
  sub: string;
  scopes: string[];
  expiresAt: number;
  revoked: boolean;
  /** The authorization code that minted it (a replayed code revokes its tokens). */
  code: string | null;
}

/** An authorization request waiting on the consent page's Approve / Cancel. */
export interface AConsent {
  id: string;
  redirectUri: string;
  state: string | null;
  scopes: string[];
  codeChallenge: string | null;
  expiresAt: number;
}

export interface ARefreshToken {
  refreshToken: string;
  sub: string;
  scopes: string[];
  expiresAt: number;
  revoked: boolean;
}

export interface AAuthCode {
  code: string;
  redirectUri: string;
  sub: string;
  scopes: string[];
  codeChallenge: string | null;
  expiresAt: number;
  usedAt: number | null;
}

export const QUERY_TYPES = [
  'IMPRESSION',
  'MEMBERS_REACHED',
  'RESHARE',
  'REACTION',
  'COMMENT',
  'LINK_CLICKS',
] as const;
export type QueryType = (typeof QUERY_TYPES)[number];
/** null: the platform has no data for that dimension (the analytics call answers empty elements). */
export type MetricCounts = Record<QueryType, number | null>;

export type ContentKind = 'none' | 'image' | 'multiImage' | 'video' | 'document' | 'article' | 'poll';

/** A create-post body that passed validation. */
export interface ValidPost {
  author: string;
  /** As sent (little text). */
  commentary: string;
  /** What a reader sees (unescaped). */
  text: string;
  visibility: string;
  lifecycleState: string;
  contentKind: ContentKind;
  content: Record<string, unknown> | null;
  /** Asset URNs the post references. */
  mediaIds: string[];
}

export interface APost extends ValidPost {
  id: string;
  createdAt: number;
  deletedAt: number | null;
  metrics: MetricCounts;
}

export type AssetKind = 'image' | 'document' | 'video';
export type AssetStatus = 'WAITING_UPLOAD' | 'PROCESSING' | 'AVAILABLE' | 'PROCESSING_FAILED';

export interface VideoPart {
  firstByte: number;
  lastByte: number;
  uploadKey: string;
  etag: string | null;
  sha256: string | null;
}

export interface AAsset {
  id: string;
  kind: AssetKind;
  owner: string;
  status: AssetStatus;
  /** Bytes received (whole file for images/documents, all parts for videos). */
  size: number | null;
  /** SHA-256 of the whole file once complete (videos: of the parts in order). */
  sha256: string | null;
  /** Images and documents: the key in their upload URL. */
  uploadKey: string | null;
  uploadUrlExpiresAt: number;
  /** The file's first bytes, to check it is what it claims (magic bytes). */
  head: Buffer | null;
  failureReason: string | null;
  createdAt: number;
  /** Videos only. */
  fileSizeBytes: number | null;
  uploadToken: string | null;
  parts: VideoPart[];
  /** Video status reads since finalize (processing completes after a configured number). */
  statusPolls: number;
  failProcessing: boolean;
}

export interface ARequest {
  at: number;
  method: string;
  route: string;
  path: string;
}

/** A comment under a post (`urn:li:comment:(urn:li:activity:…,id)`). */
export interface AComment {
  id: string;
  postUrn: string;
  actor: string;
  text: string;
  createdAt: number;
}

import { randomBytes } from 'node:crypto';
import { hour, planItem, type Tenant } from './world.ts';

/**
 * For every operation with a JSON body: a request the caller's own account makes successfully.
 * The mass-assignment test adds server-owned fields to these; a JSON-body operation without an
 * entry here fails the suite.
 */
export interface BodyCase {
  path: (t: Tenant) => string;
  body: (t: Tenant) => Record<string, any>;
  /** Public operation: sent without a key. */
  public?: boolean;
}

export const BODY_CASES: Record<string, BodyCase> = {
  'POST /v1/account': {
    path: () => '/v1/account',
    body: () => ({ email: `mass-${randomBytes(4).toString('hex')}@example.com` }),
    public: true,
  },
  'POST /v1/plans': {
    path: () => '/v1/plans',
    body: (t) => ({ brief: 'mass assignment', channelId: t.channelId, items: [planItem('mass assignment')] }),
  },
  'POST /v1/plans/{id}/drafts': {
    path: (t) => `/v1/plans/${t.plans.drafts}/drafts`,
    body: (t) => ({ channelId: t.channelId, slots: [1] }),
  },
  'POST /v1/keys': { path: () => '/v1/keys', body: () => ({ name: 'mass assignment' }) },
  'POST /v1/sessions': {
    path: () => '/v1/sessions',
    body: (t) => ({ email: t.signIn.email, password: t.signIn.password }),
    public: true,
  },
  // The same password again: an accepted request changes nothing the other cases rely on.
  'PUT /v1/account/password': {
    path: () => '/v1/account/password',
    body: (t) => ({ password: t.password, currentPassword: t.password }),
  },
  'PATCH /v1/members/{id}': {
    path: (t) => `/v1/members/${t.members.change}`,
    body: () => ({ role: 'admin' }),
  },
  'POST /v1/posts/{id}/comments': {
    path: (t) => `/v1/posts/${t.drafts.read}/comments`,
    body: () => ({ text: 'mass assignment' }),
  },
  'POST /v1/invitations': {
    path: () => '/v1/invitations',
    body: () => ({ email: `mass-${randomBytes(4).toString('hex')}@agency.example`, role: 'viewer' }),
  },
  'POST /v1/invitations/preview': {
    path: () => '/v1/invitations/preview',
    body: (t) => ({ token: t.previewToken }),
    public: true,
  },
  'POST /v1/invitations/accept': {
    path: () => '/v1/invitations/accept',
    body: (t) => ({ token: t.nextInvitationToken(), name: 'Mass Assignment' }),
    public: true,
  },
  'POST /v1/members/{id}/keys': {
    path: (t) => `/v1/members/${t.members.issue}/keys`,
    body: () => ({ name: 'mass assignment' }),
  },
  'POST /v1/webhooks': {
    path: () => '/v1/webhooks',
    body: () => ({ url: 'https://hooks.example.com/mass', events: ['post.published'] }),
  },
  'POST /v1/posts': {
    path: () => '/v1/posts',
    body: (t) => ({ text: 'mass assignment', channelId: t.channelId, firstComment: 'mass comment' }),
  },
  'POST /v1/posts/bulk-schedule': {
    path: () => '/v1/posts/bulk-schedule',
    body: (t) => ({
      items: [
        {
          text: 'mass assignment',
          runAt: Date.now() + hour,
          channelId: t.channelId,
          firstComment: 'mass comment',
        },
      ],
    }),
  },
  'PATCH /v1/posts/{id}': {
    path: (t) => `/v1/posts/${t.drafts.edit}`,
    body: () => ({ text: 'mass assignment', firstComment: 'mass comment' }),
  },
  'POST /v1/posts/{id}/submit': {
    path: (t) => `/v1/posts/${t.reviews.submit}/submit`,
    body: () => ({ runAt: Date.now() + hour }),
  },
  'POST /v1/posts/{id}/approve': {
    path: (t) => `/v1/posts/${t.reviews.approve}/approve`,
    body: () => ({ note: 'mass assignment' }),
  },
  'POST /v1/posts/{id}/request-changes': {
    path: (t) => `/v1/posts/${t.reviews.changes}/request-changes`,
    body: () => ({ note: 'mass assignment' }),
  },
  'POST /v1/posts/{id}/schedule': {
    path: (t) => `/v1/posts/${t.drafts.schedule}/schedule`,
    body: () => ({ runAt: Date.now() + hour }),
  },
  'POST /v1/channels/platformA/connect': { path: () => '/v1/channels/platformA/connect', body: () => ({}) },
  'POST /v1/channels/platformB/connect': { path: () => '/v1/channels/platformB/connect', body: () => ({}) },
  'POST /v1/score': { path: () => '/v1/score', body: () => ({ post: 'We shipped webhooks today.' }) },
  'POST /v1/rewrite': { path: () => '/v1/rewrite', body: () => ({ post: 'We shipped webhooks today.' }) },
  'POST /v1/generate': { path: () => '/v1/generate', body: () => ({ brief: 'Webhooks launch' }) },
  'POST /v1/plan': { path: () => '/v1/plan', body: () => ({ brief: 'Webhooks launch', count: 1 }) },
  'POST /v1/brands': { path: () => '/v1/brands', body: () => ({ name: 'mass assignment' }) },
  'PATCH /v1/brands/{id}': {
    path: (t) => `/v1/brands/${t.brandId}`,
    body: () => ({ name: 'mass assignment' }),
  },
  'POST /v1/voices': { path: () => '/v1/voices', body: () => ({ name: 'mass assignment' }) },
  'POST /v1/voices/build': {
    path: () => '/v1/voices/build',
    body: () => ({ name: 'mass assignment', samples: ['We shipped webhooks today.'] }),
  },
  'PATCH /v1/voices/{id}': {
    path: (t) => `/v1/voices/${t.voiceId}`,
    body: () => ({ name: 'mass assignment' }),
  },
  'POST /v1/posts/validate': {
    path: () => '/v1/posts/validate',
    body: () => ({ post: 'mass assignment', thread: ['mass part'], firstComment: 'mass comment' }),
  },
  'PATCH /v1/posts/{id}/scheduled': {
    path: (t) => `/v1/posts/${t.scheduledId}/scheduled`,
    body: () => ({ text: 'mass assignment', firstComment: 'mass comment' }),
  },
  'PUT /v1/channels/{id}/queue': {
    path: (t) => `/v1/channels/${t.channelId}/queue`,
    body: () => ({ timezone: 'UTC', slots: [{ day: 1, time: '09:00' }] }),
  },
  // One-shot: every send takes a fresh consent request from the tenant's pool.
  'POST /v1/oauth/requests/{id}/approve': {
    path: (t) => `/v1/oauth/requests/${t.nextOauthRequest()}/approve`,
    body: () => ({ scopes: ['read'] }),
  },
  'PATCH /v1/account': {
    path: () => '/v1/account',
    body: () => ({ email: `moved-${randomBytes(4).toString('hex')}@example.com` }),
  },
  'PATCH /v1/account/settings': {
    path: () => '/v1/account/settings',
    body: () => ({ timezone: 'Europe/Paris' }),
  },
  'POST /v1/post-groups': {
    path: () => '/v1/post-groups',
    body: (t) => ({
      variants: [{ channelId: t.channelId, text: 'mass assignment', firstComment: 'mass comment' }],
    }),
  },
  'POST /v1/history': {
    path: () => '/v1/history',
    body: () => ({ items: [{ text: 'mass assignment history', reactions: 1 }] }),
  },
};

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ok, type Post } from '../api.ts';
import { ApiError } from '../lib/errors.ts';

export type SaveAction = 'draft' | 'schedule' | 'publish';

/** What Compose saves: the post's parts as the platform takes them (lib/parts.ts partsToSend). */
export interface ComposeFields {
  text: string;
  channelId: string | null;
  mediaIds: string[];
  thread: string[];
  firstComment: string | null;
}

/**
 * Save draft, schedule or publish now: a draft being edited is updated (then scheduled), anything
 * else is created; publish then claims it. A failed publish answers with the failed post, which is
 * returned so its reason shows instead of a bare error.
 */
export function useSavePost({
  editingDraft,
  fields,
  platform,
  brandId = null,
  runAt,
  onSaved,
}: {
  /** The id of the draft being edited, when it is still a draft. */
  editingDraft: string | null;
  fields: ComposeFields;
  platform: 'platformA' | 'platformB';
  /** The brand a new post is created under (a copy keeps its original's). */
  brandId?: string | null;
  runAt: number | null;
  onSaved: (post: Post) => void;
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (action: SaveAction) => {
      let post: Post;
      if (editingDraft) {
        const path = { params: { path: { id: editingDraft } } };
        post = (await ok(api.PATCH('/v1/posts/{id}', { ...path, body: fields }))).post;
        if (action === 'schedule') {
          const body = { runAt: runAt! };
          post = (await ok(api.POST('/v1/posts/{id}/schedule', { params: { path: { id: post.id } }, body })))
            .post;
        }
      } else {
        const body = {
          ...fields,
          platform,
          ...(brandId ? { brandId } : {}),
          ...(action === 'schedule' ? { runAt: runAt! } : {}),
        };
        post = (await ok(api.POST('/v1/posts', { body }))).post;
      }
      if (action === 'publish') {
        try {
          post = (await ok(api.POST('/v1/posts/{id}/publish', { params: { path: { id: post.id } } }))).post;
        } catch (err) {
          // publish_failed / channel_revoked carry the failed post: show its reason, not a bare error.
          if (err instanceof ApiError && err.post) return err.post as Post;
          throw err;
        }
      }
      return post;
    },
    onSuccess: (post) => {
      onSaved(post);
      queryClient.invalidateQueries({ queryKey: ['posts'] });
      queryClient.invalidateQueries({ queryKey: ['calendar'] });
    },
  });
}

import { useQuery } from '@tanstack/react-query';
import { api, ok } from '../api.ts';

/**
 * The post Compose starts from. `?post=<id>` edits that draft in place; `?copy=<id>` (Posts' "Write
 * a copy" of a failed or canceled post) prefills a NEW post from it, so the whole post comes along
 * (thread, first comment, channel, media, brand) and the original is never written to.
 */
export interface ComposeSource {
  id: string | null;
  copy: boolean;
}

export function composeSource(params: URLSearchParams): ComposeSource {
  const editing = params.get('post');
  if (editing) return { id: editing, copy: false };
  const copyOf = params.get('copy');
  return { id: copyOf, copy: Boolean(copyOf) };
}

/** The source post, then its media items (one read each: a post holds a handful at most). */
export function useSourcePost(id: string | null) {
  const post = useQuery({
    queryKey: ['post', id],
    queryFn: () => ok(api.GET('/v1/posts/{id}', { params: { path: { id: id! } } })),
    enabled: Boolean(id),
    // Read afresh each time the editor opens (since it was last read, an approver may have
    // scheduled it, or the publish sweep sent it), and only then: a read while the person types
    // would put the server's text back over theirs.
    staleTime: 0,
    refetchOnWindowFocus: false,
  });
  const mediaIds = post.data?.post.mediaIds ?? [];
  const media = useQuery({
    queryKey: ['post-media', id, mediaIds],
    queryFn: () =>
      Promise.all(
        mediaIds.map((m) =>
          ok(api.GET('/v1/media/{id}', { params: { path: { id: m } } })).then((r) => r.media),
        ),
      ),
    enabled: mediaIds.length > 0,
  });
  return { post, media };
}

import { useQuery } from '@tanstack/react-query';
import { api, type Channel, ok, type Post } from '../api.ts';
import { channelName } from '../lib/channels.ts';
import { Link } from '../router.tsx';

/**
 * Editing one post of a group (`#/compose?post=<id>`): the editor writes that channel's post only,
 * and says so in one line, with a link to each of the group's other posts (to edit it while it is
 * a draft or scheduled, to read it otherwise).
 */
export function GroupVariantNote({ post, channels }: { post: Post; channels: Channel[] }) {
  const group = useQuery({
    queryKey: ['post-group', post.groupId],
    queryFn: () => ok(api.GET('/v1/post-groups/{id}', { params: { path: { id: post.groupId! } } })),
    enabled: Boolean(post.groupId),
  });
  if (!post.groupId || !group.data) return null;
  const others = group.data.posts.filter((p) => p.id !== post.id);
  if (others.length === 0) return null;
  const nameOf = (p: Post) => {
    const c = channels.find((x) => x.id === p.channelId);
    return c ? channelName(c) : `a ${p.platform} channel no longer connected`;
  };
  const one = others.length === 1;
  return (
    <p className="notice info" role="note">
      This post is one of a group of {others.length + 1}, one per channel. Changes here are made to this post
      only; {one ? 'the other stays as it is' : 'the others stay as they are'}:{' '}
      {others.map((p, i) => (
        <span key={p.id}>
          {i > 0 && (i === others.length - 1 ? ' and ' : ', ')}
          <Link
            to={
              p.status === 'draft' || p.status === 'scheduled' ? `/compose?post=${p.id}` : `/post?id=${p.id}`
            }
          >
            {nameOf(p)}
          </Link>
        </span>
      ))}
      .
    </p>
  );
}

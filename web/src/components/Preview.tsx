import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { overflowIndex } from '../../../packages/client/src/text-length.ts';
import { type Media, mediaObjectUrl } from '../api.ts';
import { foldPost } from '../lib/fold.ts';
import { countPart, type PlatformFacts } from '../lib/parts.ts';
import { ShownMarks } from './SpanMarks.tsx';

export function MediaThumb({ media, className = 'thumb' }: { media: Media; className?: string }) {
  const isImage = media.contentType.startsWith('image/');
  const url = useQuery({
    queryKey: ['media-content', media.id],
    queryFn: () => mediaObjectUrl(media.id),
    enabled: isImage,
    staleTime: Number.POSITIVE_INFINITY,
  });
  if (isImage && url.data)
    return <img className={className} src={url.data} alt={media.filename ?? 'attached image'} />;
  return (
    <div className={`${className} file`} role="img" aria-label={media.filename ?? media.contentType}>
      {media.contentType === 'application/pdf'
        ? 'PDF'
        : media.contentType.startsWith('video/')
          ? 'Video'
          : 'File'}
      <small>{media.filename}</small>
    </div>
  );
}

/** platformA's feed card: the text up to the fold, then "…see more"; the first comment under it. */
export function PlatformAPreview({
  facts,
  text,
  author,
  media,
  comment = null,
}: {
  facts: PlatformFacts;
  text: string;
  author: string;
  media: Media[];
  comment?: string | null;
}) {
  const [open, setOpen] = useState(false);
  // A platform whose card shows the post whole never folds.
  const fold = facts.fold ? foldPost(text, facts.fold) : { visible: text, folded: false, index: text.length };
  return (
    <article className="preview pa" aria-label={`Preview on ${facts.displayName}`}>
      <header>
        <span className="avatar" aria-hidden="true">
          {initial(author)}
        </span>
        <span>
          <strong>{author}</strong>
          <small>Now · Anyone</small>
        </span>
      </header>
      <p className="body" dir="auto">
        <ShownMarks text={open || !fold.folded ? text : fold.visible} whole={text} />
        {fold.folded && !open && (
          <>
            {'… '}
            <button type="button" className="link" onClick={() => setOpen(true)}>
              see more
            </button>
          </>
        )}
      </p>
      {media.length > 0 && (
        <div className={`media-grid n${Math.min(media.length, 4)}`}>
          {media.slice(0, 4).map((m) => (
            <MediaThumb key={m.id} media={m} />
          ))}
        </div>
      )}
      <footer aria-hidden="true">Like · Comment · Repost · Send</footer>
      {comment?.trim() && (
        <article className="pa-comment" aria-label="First comment, under the post">
          <span className="avatar small" aria-hidden="true">
            {initial(author)}
          </span>
          <p>
            <strong>{author}</strong> <small className="muted">First comment</small>
            <span className="body">{comment}</span>
          </p>
        </article>
      )}
      <p className="fold-note">
        {fold.folded
          ? `Readers see the first ${fold.visible.length} characters before "see more".`
          : 'The whole post shows without a "see more" fold.'}
      </p>
    </article>
  );
}

const initial = (author: string) => author.replace(/^@/, '').slice(0, 1).toUpperCase();

/**
 * platformB: the post, each thread part as a reply to the one before, then the first comment
 * as a reply to the last part; every part against 280 weighted characters, its overflow marked.
 */
export function PlatformBPreview({
  facts,
  text,
  author,
  thread = [],
  comment = null,
}: {
  facts: PlatformFacts;
  text: string;
  author: string;
  thread?: string[];
  comment?: string | null;
}) {
  const parts = [text, ...thread];
  const chained = parts.length > 1 || Boolean(comment?.trim());
  return (
    <section className={chained ? 'pb-chain' : undefined} aria-label={`Preview on ${facts.displayName}`}>
      {parts.map((part, i) => (
        <PlatformBPart
          facts={facts}
          kind={i === 0 ? 'post' : 'reply'}
          key={i}
          text={part}
          author={author}
          label={parts.length > 1 ? `Part ${i + 1} of ${parts.length}` : null}
        />
      ))}
      {comment?.trim() && (
        <PlatformBPart
          facts={facts}
          kind="comment"
          text={comment}
          author={author}
          label="First comment (a reply)"
        />
      )}
    </section>
  );
}

/** One platformB post of the chain. */
function PlatformBPart({
  facts,
  kind,
  text,
  author,
  label,
}: {
  facts: PlatformFacts;
  kind: 'post' | 'reply' | 'comment';
  text: string;
  author: string;
  label: string | null;
}) {
  const limit = facts.parts[kind] ?? facts.parts.post;
  const count = countPart(facts, kind, text);
  const length = count?.length ?? text.length;
  const max = limit.max;
  const cut = overflowIndex(limit.counting, text, max);
  return (
    <article className="preview pb" aria-label={label ?? 'The post'}>
      <header>
        <span className="avatar round" aria-hidden="true">
          {initial(author)}
        </span>
        <strong>{author}</strong>
        {label && <small className="muted">{label}</small>}
      </header>
      <p className="body" dir="auto">
        <ShownMarks text={text.slice(0, cut)} whole={text} />
        {cut < text.length && <mark title={`over the ${max}-character limit`}>{text.slice(cut)}</mark>}
      </p>
      <p className={`counter ${length > max ? 'over' : ''}`}>
        {length}/{max}
        {length > max && ` — ${length - max} over: the highlighted part does not fit`}
      </p>
    </article>
  );
}

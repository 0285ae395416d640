import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { type Media, mediaObjectUrl } from '../api.ts';
import { foldPost, PLATFORMB_LIMIT, platformBLength, platformBOverflowIndex } from '../lib/fold.ts';

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
  text,
  author,
  media,
  comment = null,
}: {
  text: string;
  author: string;
  media: Media[];
  comment?: string | null;
}) {
  const [open, setOpen] = useState(false);
  const fold = foldPost(text);
  return (
    <article className="preview pa" aria-label="Preview on platformA">
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
        {open || !fold.folded ? text : fold.visible}
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
  text,
  author,
  thread = [],
  comment = null,
}: {
  text: string;
  author: string;
  thread?: string[];
  comment?: string | null;
}) {
  const parts = [text, ...thread];
  const chained = parts.length > 1 || Boolean(comment?.trim());
  return (
    <section className={chained ? 'pb-chain' : undefined} aria-label="Preview on platformB">
      {parts.map((part, i) => (
        <PlatformBPart
          key={i}
          text={part}
          author={author}
          label={parts.length > 1 ? `Part ${i + 1} of ${parts.length}` : null}
        />
      ))}
      {comment?.trim() && <PlatformBPart text={comment} author={author} label="First comment (a reply)" />}
    </section>
  );
}

/** One platformB post of the chain. */
function PlatformBPart({ text, author, label }: { text: string; author: string; label: string | null }) {
  const length = platformBLength(text);
  const cut = platformBOverflowIndex(text);
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
        {text.slice(0, cut)}
        {cut < text.length && <mark title="over the 280-character limit">{text.slice(cut)}</mark>}
      </p>
      <p className={`counter ${length > PLATFORMB_LIMIT ? 'over' : ''}`}>
        {length}/{PLATFORMB_LIMIT}
        {length > PLATFORMB_LIMIT && ` — ${length - PLATFORMB_LIMIT} over: the highlighted part does not fit`}
      </p>
    </article>
  );
}

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

/** platformA's feed card: the text up to the fold, then "…see more". */
export function PlatformAPreview({ text, author, media }: { text: string; author: string; media: Media[] }) {
  const [open, setOpen] = useState(false);
  const fold = foldPost(text);
  return (
    <article className="preview pa" aria-label="Preview on platformA">
      <header>
        <span className="avatar" aria-hidden="true">
          {author.replace(/^@/, '').slice(0, 1).toUpperCase()}
        </span>
        <span>
          <strong>{author}</strong>
          <small>Now · Anyone</small>
        </span>
      </header>
      <p className="body">
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
      <p className="fold-note">
        {fold.folded
          ? `Readers see the first ${fold.visible.length} characters before "see more".`
          : 'The whole post shows without a "see more" fold.'}
      </p>
    </article>
  );
}

/** platformB: 280 weighted characters; the overflow is marked. */
export function PlatformBPreview({ text, author }: { text: string; author: string }) {
  const length = platformBLength(text);
  const cut = platformBOverflowIndex(text);
  return (
    <article className="preview pb" aria-label="Preview on platformB">
      <header>
        <span className="avatar round" aria-hidden="true">
          {author.replace(/^@/, '').slice(0, 1).toUpperCase()}
        </span>
        <strong>{author}</strong>
      </header>
      <p className="body">
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

import type { Post } from '../api.ts';
import { usePlatformFacts } from '../lib/hooks.ts';
import { type PartState, partsSummary, publishedParts } from '../lib/parts.ts';

const STATE_WORDS: Record<PartState, string> = {
  published: 'published',
  waiting: 'not published yet',
  publishing: 'being published',
  'not published': 'not published',
};

/** The posts list's one line about a thread or a first comment ("Thread of 3 parts · …"). */
export function PartsSummary({ post }: { post: Post }) {
  const line = partsSummary(post);
  return line ? <p className="muted parts-summary">{line}</p> : null;
}

/**
 * A thread's or first comment's parts, each with what became of it: the platform's id and,
 * where the part is a post of its own, its link. A plain post shows nothing more here.
 */
export function PostParts({ post }: { post: Post }) {
  const parts = publishedParts(post, usePlatformFacts(post.platform));
  if (parts.length <= 1) return null;
  return (
    <section aria-label="Parts on the platform">
      <h3>Parts on the platform</h3>
      <ol className="parts-list">
        {parts.map((p) => (
          <li key={p.path} className={`part ${p.state.replace(' ', '-')}`}>
            <strong>{p.label}</strong>: {STATE_WORDS[p.state]}
            {p.id && (
              <>
                {' '}
                · id <code>{p.id}</code>
              </>
            )}
            {p.url && (
              <>
                {' '}
                · <a href={p.url}>Open {p.label.toLowerCase()} on the platform</a>
              </>
            )}
            <span className="part-text">{p.text}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}

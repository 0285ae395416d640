import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { PlatformId } from '../api.ts';
import { api, ok, type Schemas } from '../api.ts';
import { Diff } from '../components/Diff.tsx';
import { EngineNotice } from '../components/EngineNotice.tsx';
import { ErrorBox, Working } from '../components/ErrorBox.tsx';
import { NamedSelect } from '../components/NamedSelect.tsx';
import { ScorePanel } from '../components/ScorePanel.tsx';
import { draftsLine } from '../lib/engine.ts';
import { useBrands, useVoices } from '../lib/hooks.ts';

type ScoreBody = Schemas['ScoreRequestInput'];

/** What "Use the rewrite" fills: the post, the thread parts after it, and the first comment. */
export interface UsedRewrite {
  text: string;
  thread: string[];
  firstComment: string | null;
}

/** Rewrite: the before/after diff, what changed and both scores as measured. */
export function RewritePanel({ body, onUse }: { body: ScoreBody; onUse: (rewrite: UsedRewrite) => void }) {
  const rewrite = useMutation({
    mutationFn: (input: ScoreBody) => ok(api.POST('/v1/rewrite', { body: input })),
  });
  const r = rewrite.data;
  // The text that was rewritten: the diff is against it, not against what the editor holds now.
  const source = rewrite.variables?.post ?? body.post;
  const unchanged =
    r !== undefined && r.rewrite.trim() === source.trim() && r.thread.length === 0 && r.firstComment === null;
  // What would be published, part after part, for the diff against the original.
  const published = r ? [r.rewrite, ...r.thread].join('\n\n') : '';
  // Edited since: "Use the rewrite" would silently throw the edits away.
  const stale = source !== body.post;
  return (
    <details className="assist">
      <summary>Rewrite this post</summary>
      <p className="hint">
        Scores the post, rewrites it without inventing facts, and scores the rewrite as measured.
      </p>
      <button
        type="button"
        onClick={() => rewrite.mutate(body)}
        disabled={!body.post.trim() || rewrite.isPending}
      >
        {r ? 'Rewrite again' : 'Rewrite'}
      </button>
      {rewrite.isPending && (
        <Working label="Rewriting…" hint="This can take up to half a minute with a model." />
      )}
      <ErrorBox error={rewrite.error} />
      {r && !rewrite.isPending && (
        <div className="rewrite">
          <EngineNotice engine={r.engine} work="rewrite" />
          {stale && (
            <p className="notice" role="status">
              You changed the post after this rewrite: press <strong>Rewrite again</strong> to rewrite what
              you have now.
            </p>
          )}
          {unchanged ? (
            <p className="muted">
              The rewrite kept your text as it is (score {Math.round(r.before.overall)}): nothing it knows how
              to improve. The score's signals say what to change by hand.
            </p>
          ) : (
            <>
              <h3>
                Before {Math.round(r.before.overall)} → after {Math.round(r.after.overall)}
                {r.after.overall < r.before.overall && ' (lower: keep your version?)'}
              </h3>
              <Diff before={source} after={published} />
              {r.thread.length > 0 && (
                <div className="rewrite-thread">
                  <h4>As a thread of {r.thread.length + 1} parts</h4>
                  <ol>
                    {[r.rewrite, ...r.thread].map((part, i) => (
                      <li key={i} className="pre">
                        {part}
                      </li>
                    ))}
                  </ol>
                </div>
              )}
              {r.firstComment && (
                <div className="rewrite-comment">
                  <h4>First comment</h4>
                  <p className="pre">{r.firstComment}</p>
                </div>
              )}
              <ul>
                {r.changes.map((c, i) => (
                  <li key={i}>
                    <strong>{c.dimension}</strong>: {c.note}
                  </li>
                ))}
              </ul>
              <div className="cards two">
                <div>
                  <h4>Before</h4>
                  <ScorePanel result={r.before} compact />
                </div>
                <div>
                  <h4>After</h4>
                  <ScorePanel result={r.after} compact />
                </div>
              </div>
              {!stale && (
                <button
                  type="button"
                  className="primary"
                  onClick={() => onUse({ text: r.rewrite, thread: r.thread, firstComment: r.firstComment })}
                >
                  Use the rewrite
                </button>
              )}
            </>
          )}
        </div>
      )}
    </details>
  );
}

/** Generate: up to three candidates from a brief, each with its score, best first. */
export function GeneratePanel({
  platform,
  media,
  onUse,
}: {
  platform: PlatformId;
  media: ScoreBody['media'];
  /** The draft and, when it became a thread (platformB), its replies. */
  onUse: (text: string, thread: string[]) => void;
}) {
  const [brief, setBrief] = useState('');
  const [count, setCount] = useState(3);
  const [brandId, setBrandId] = useState('');
  const [voiceId, setVoiceId] = useState('');
  const brands = useBrands();
  const voices = useVoices();
  const generate = useMutation({
    mutationFn: () =>
      ok(
        api.POST('/v1/generate', {
          body: {
            brief,
            platform,
            media,
            count,
            ...(brandId ? { brandId } : {}),
            ...(voiceId ? { voiceId } : {}),
          },
        }),
      ),
  });
  return (
    <details className="assist">
      <summary>Generate from a brief</summary>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          generate.mutate();
        }}
      >
        <label htmlFor="gen-brief">Brief</label>
        <textarea
          id="gen-brief"
          rows={3}
          required
          value={brief}
          onChange={(e) => setBrief(e.target.value)}
          placeholder="What the post is about, for whom, and the one thing to remember."
        />
        <div className="row wrap">
          <label>
            Candidates{' '}
            <select value={count} onChange={(e) => setCount(Number(e.target.value))}>
              {[1, 2, 3].map((n) => (
                <option key={n}>{n}</option>
              ))}
            </select>
          </label>
          <NamedSelect label="Brand" value={brandId} onChange={setBrandId} items={brands.data?.brands} />
          <NamedSelect label="Voice" value={voiceId} onChange={setVoiceId} items={voices.data?.voices} />
          <button type="submit" disabled={!brief.trim() || generate.isPending}>
            Generate
          </button>
        </div>
      </form>
      {generate.isPending && <Working label="Generating and scoring candidates…" />}
      <ErrorBox error={generate.error} />
      {generate.data && <DraftsEngine result={generate.data} />}
      <ol className="candidates">
        {generate.data?.candidates.map((c, i) => (
          <li key={i} className="card">
            <p className="pre">{c.post}</p>
            {c.thread.length > 0 && (
              <div className="rewrite-thread">
                <h4>A thread of {c.thread.length + 1} parts; the replies:</h4>
                <ol start={2}>
                  {c.thread.map((part, j) => (
                    <li key={j} className="pre">
                      {part}
                    </li>
                  ))}
                </ol>
              </div>
            )}
            <ScorePanel result={c.score} compact />
            <button type="button" onClick={() => onUse(c.post, c.thread)}>
              Use this one
            </button>
          </li>
        ))}
      </ol>
    </details>
  );
}

/**
 * Who wrote the drafts, in one line: offline, the offline notice; with a model, which drafts the
 * model wrote and which the offline engine wrote after a model draft failed a check.
 */
function DraftsEngine({ result }: { result: Schemas['GenerateResult'] }) {
  const line = draftsLine(
    result.engine,
    result.candidates.map((c) => c.writtenBy),
  );
  if (!line) return <EngineNotice engine={result.engine} work="candidates" />;
  return (
    <p className="engine-note drafts-by muted" role="status">
      {line}
    </p>
  );
}

import { useEffect } from 'react';
import type { ScoreResult } from '../api.ts';
import { MarkedText, showSpans, type TextSpan, useShownSpans } from './SpanMarks.tsx';

type Signal = ScoreResult['signals'][number];
/** A signal's spans (UTF-16 offsets into the scored text); none when it is about the whole post. */
const spansOf = (s: Signal): TextSpan[] => (s as Signal & { spans?: TextSpan[] }).spans ?? [];

const DIMENSIONS: { id: keyof ScoreResult['breakdown']; label: string }[] = [
  { id: 'hook', label: 'Hook' },
  { id: 'algorithmFit', label: 'Algorithm fit' },
  { id: 'specificity', label: 'Specificity' },
  { id: 'structure', label: 'Structure' },
  { id: 'voice', label: 'Voice' },
  { id: 'engagement', label: 'Engagement' },
];

/** A dimension's name for people ("Algorithm fit"), never the API's field name (`algorithmFit`). */
const labelOf = (dimension: string) => DIMENSIONS.find((d) => d.id === dimension)?.label ?? dimension;

/** The personal score: present once the account's history (10+ posts with engagement) is fitted. */
function Personal({ value: p }: { value: ScoreResult['personal'] }) {
  if (!p) return null;
  return (
    <div className="personal">
      {/* One sentence, the API's own (its note says the history, the expectation and the comparison). */}
      <p>
        <strong>Personal score {Math.round(p.overall)}.</strong> {p.note}
      </p>
      {p.signals.length > 0 && (
        <ul>
          {p.signals.map((sig, i) => (
            <li key={i}>
              <strong>{sig.label}</strong>: {sig.detail}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * `text` is the text the result scored: given, a signal that points at words offers to show
 * them, marked here, in the editor and in the preview (SpanMarks.tsx).
 */
export function ScorePanel({
  result,
  text,
  compact = false,
}: {
  result: ScoreResult;
  text?: string;
  compact?: boolean;
}) {
  const signals = [...result.signals].sort((a, b) => b.weight - a.weight);
  const shown = useShownSpans();
  // A new score (or leaving the page) clears what the last one marked.
  useEffect(() => () => showSpans(null), [result]);
  return (
    <section className="score" aria-label={`Score ${Math.round(result.overall)} out of 100`}>
      <div className="overall">
        <span className={`big ${result.overall >= 70 ? 'good' : result.overall >= 45 ? 'mid' : 'low'}`}>
          {Math.round(result.overall)}
        </span>
        <span className="of">/100</span>
        <p className="verdict">{result.verdict}</p>
      </div>
      <Personal value={result.personal} />
      <dl className="dims">
        {DIMENSIONS.map((d) => (
          <div key={d.id} className="dim">
            <dt>{d.label}</dt>
            <dd>
              <meter min={0} max={100} low={45} high={70} optimum={100} value={result.breakdown[d.id]} />
              <span>{Math.round(result.breakdown[d.id])}</span>
            </dd>
          </div>
        ))}
      </dl>
      {!compact && (
        <>
          <p className="note">
            Hook: <strong>{result.hookArchetype}</strong>. {result.hookArchetypeNote} Format ×
            {result.formatMultiplier}: {result.formatNote}
          </p>
          <h3>Signals, strongest first</h3>
          <ol className="signals">
            {signals.map((s, i) => {
              const key = `${s.label}-${i}`;
              const spans = text === undefined ? [] : spansOf(s);
              const open = shown?.key === key && shown.text === text;
              return (
                <li key={key} className={s.impact}>
                  <span className="sig-head">
                    <span aria-hidden="true">{s.impact === 'positive' ? '▲' : '▼'}</span>
                    <span className="sr-only">{s.impact === 'positive' ? 'Helps:' : 'Hurts:'}</span>{' '}
                    <strong>{s.label}</strong>{' '}
                    <span className="muted">
                      ({labelOf(s.dimension)}, weight {s.weight})
                    </span>
                  </span>
                  <span className="detail">{s.detail}</span>
                  {spans.length > 0 && text !== undefined && (
                    <button
                      type="button"
                      className="link show-spans"
                      aria-pressed={open}
                      onClick={() => showSpans(open ? null : { text, spans, key })}
                    >
                      {open ? 'Hide in post' : 'Show in post'}
                    </button>
                  )}
                  {open && (
                    <MarkedText text={text!} spans={spans} label={`Where “${s.label}” points in the post`} />
                  )}
                </li>
              );
            })}
          </ol>
        </>
      )}
    </section>
  );
}

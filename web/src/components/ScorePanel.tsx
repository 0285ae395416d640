import type { ScoreResult } from '../api.ts';

const DIMENSIONS: { id: keyof ScoreResult['breakdown']; label: string }[] = [
  { id: 'hook', label: 'Hook' },
  { id: 'algorithmFit', label: 'Algorithm fit' },
  { id: 'specificity', label: 'Specificity' },
  { id: 'structure', label: 'Structure' },
  { id: 'voice', label: 'Voice' },
  { id: 'engagement', label: 'Engagement' },
];

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

export function ScorePanel({ result, compact = false }: { result: ScoreResult; compact?: boolean }) {
  const signals = [...result.signals].sort((a, b) => b.weight - a.weight);
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
            {signals.map((s, i) => (
              <li key={`${s.label}-${i}`} className={s.impact}>
                <span className="sig-head">
                  <span aria-hidden="true">{s.impact === 'positive' ? '▲' : '▼'}</span>
                  <span className="sr-only">{s.impact === 'positive' ? 'Helps:' : 'Hurts:'}</span>{' '}
                  <strong>{s.label}</strong>{' '}
                  <span className="muted">
                    ({s.dimension}, weight {s.weight})
                  </span>
                </span>
                <span className="detail">{s.detail}</span>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}

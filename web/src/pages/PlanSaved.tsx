import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ok, type Schemas } from '../api.ts';
import { ErrorBox, Working } from '../components/ErrorBox.tsx';
import { sharedEvidence } from '../lib/plan-words.ts';
import { formatWhen } from '../lib/time.ts';

type SavedPlan = Schemas['SavedPlan'];

/** The drafts made from a saved plan: one per item, of its hook and the brief's facts for it. */
export function useTurnIntoDrafts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, schedule = false }: { id: string; schedule?: boolean }) =>
      ok(api.POST('/v1/plans/{id}/drafts', { params: { path: { id } }, body: schedule ? { schedule } : {} })),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: ['plans'] });
      queryClient.invalidateQueries({ queryKey: ['posts'] });
    },
  });
}

/** What one call made, said once: "3 drafts made" or "Every item already has its draft". */
export function DraftsMade({ result }: { result: Schemas['PlanDraftsResult'] | undefined }) {
  if (!result) return null;
  return (
    <div role="status">
      <p>
        {result.made === 0
          ? 'Every item already has its draft.'
          : `${result.made} ${result.made === 1 ? 'draft' : 'drafts'} made.`}
      </p>
      <ul>
        {result.posts.map((post) => (
          <li key={post.id}>
            <a href={`#/compose?post=${post.id}`}>{post.text.split('\n')[0]}</a>
            {post.status === 'scheduled' && post.scheduledFor !== null && (
              <span className="muted"> · scheduled for {formatWhen(post.scheduledFor)}</span>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Saved plans, newest first: each can be turned into drafts or deleted. */
export function SavedPlans() {
  const queryClient = useQueryClient();
  const plans = useQuery({
    queryKey: ['plans'],
    queryFn: () => ok(api.GET('/v1/plans', { params: { query: { limit: 20 } } })),
  });
  const drafts = useTurnIntoDrafts();
  const remove = useMutation({
    mutationFn: (id: string) => ok(api.DELETE('/v1/plans/{id}', { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['plans'] }),
  });
  const list: SavedPlan[] = plans.data?.plans ?? [];
  return (
    <section aria-labelledby="saved-plans">
      <h2 id="saved-plans">Saved outlines</h2>
      <ErrorBox error={plans.error ?? remove.error} />
      {plans.isSuccess && list.length === 0 && <p className="muted">Nothing saved yet.</p>}
      <ul className="plan-items">
        {list.map((plan) => {
          const drafted = plan.items.filter((i) => i.postId).length;
          return (
            <li key={plan.id} className="card">
              <p>
                <strong>{plan.title}</strong>
              </p>
              <p className="muted">
                {plan.items.length} {plan.items.length === 1 ? 'item' : 'items'}, {drafted} with a draft ·
                saved {formatWhen(plan.createdAt)}
              </p>
              <div className="row wrap">
                <button
                  type="button"
                  onClick={() => drafts.mutate({ id: plan.id })}
                  disabled={drafts.isPending}
                >
                  Turn into drafts
                </button>
                <button type="button" onClick={() => remove.mutate(plan.id)} disabled={remove.isPending}>
                  Delete
                </button>
              </div>
              <details>
                <summary>Items</summary>
                {sharedEvidence(plan.items) && (
                  <p className="muted shared-evidence">Every item: {sharedEvidence(plan.items)}</p>
                )}
                <ol>
                  {plan.items.map((item) => (
                    <li key={item.slot}>
                      <strong>{item.hook}</strong>
                      {item.when !== null && <span className="muted"> · {formatWhen(item.when)}</span>}
                      {item.evidence && !sharedEvidence(plan.items) && (
                        <p className="muted">{item.evidence}</p>
                      )}
                    </li>
                  ))}
                </ol>
              </details>
              {drafts.variables?.id === plan.id && (
                <>
                  {drafts.isPending && <Working label="Making the drafts…" />}
                  <ErrorBox error={drafts.error} />
                  <DraftsMade result={drafts.data} />
                </>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

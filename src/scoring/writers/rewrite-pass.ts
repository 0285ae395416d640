import type { Dimension } from '../../domain/enums.ts';
import type { Rubric } from '../rules/rubrics.ts';

/** What one rewrite pass did: the new text and the change note the writer reads. */
export interface PassResult {
  text: string;
  note: string;
  /** Links the pass moved out of the body, for the first comment. */
  moved?: string[];
}

export interface RewritePass {
  name: string;
  dimension: Dimension;
  /** Kept only when the score rates the result higher; unguided passes always apply. */
  guided: boolean;
  /**
   * Runs only when a score guides the rewrite: the edit follows what the learned model found
   * among the same authors' posts, not a rule a fixed recipe could follow on its own.
   */
  needsMeasure?: boolean;
  /** `original` is the post as the author wrote it, before any pass. */
  apply(text: string, rubric: Rubric, original: string): PassResult | null;
}

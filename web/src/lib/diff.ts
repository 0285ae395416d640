/**
 * A word-level diff (longest common subsequence over words and the whitespace between them),
 * for showing a rewrite against the original.
 */
export interface DiffPart {
  kind: 'same' | 'added' | 'removed';
  text: string;
}

/** Words and runs of whitespace, so joining the tokens gives the text back. */
export function tokenize(text: string): string[] {
  return text.match(/\s+|[^\s]+/g) ?? [];
}

export function diffWords(before: string, after: string): DiffPart[] {
  const a = tokenize(before);
  const b = tokenize(after);
  // LCS lengths from the end, so the walk below goes forward.
  const lcs: Uint32Array[] = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const parts: DiffPart[] = [];
  const push = (kind: DiffPart['kind'], text: string) => {
    const last = parts[parts.length - 1];
    if (last && last.kind === kind) last.text += text;
    else parts.push({ kind, text });
  };
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      push('same', a[i]!);
      i++;
      j++;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) push('removed', a[i++]!);
    else push('added', b[j++]!);
  }
  while (i < a.length) push('removed', a[i++]!);
  while (j < b.length) push('added', b[j++]!);
  return readable(parts);
}

/**
 * Joins a change run broken only by a shared space ("six weeks" -> "6 weeks," would otherwise
 * read as three edits) into one removed part followed by one added part.
 */
function readable(parts: DiffPart[]): DiffPart[] {
  const out: DiffPart[] = [];
  let k = 0;
  while (k < parts.length) {
    const part = parts[k]!;
    if (part.kind === 'same') {
      out.push({ ...part });
      k++;
      continue;
    }
    let removed = '';
    let added = '';
    while (k < parts.length) {
      const p = parts[k]!;
      const gap =
        p.kind === 'same' && /^\s+$/.test(p.text) && k + 1 < parts.length && parts[k + 1]!.kind !== 'same';
      if (p.kind === 'removed') removed += p.text;
      else if (p.kind === 'added') added += p.text;
      else if (gap) {
        removed += p.text;
        added += p.text;
      } else break;
      k++;
    }
    if (removed) out.push({ kind: 'removed', text: removed });
    if (added) out.push({ kind: 'added', text: added });
  }
  return out;
}

import {
  type CSSProperties,
  type ReactNode,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';

/**
 * A signal's spans marked in the text it was scored on, the way Hemingway marks the sentence
 * itself: `spans` are UTF-16 offsets into the submitted text, which is what a JavaScript string
 * indexes, so they cut the text as they are. Overlapping or touching spans are drawn as one mark.
 */

export interface TextSpan {
  start: number;
  end: number;
}

/** A signal's spans, in order and merged, kept inside the text; none when it is about the whole post. */
export function cleanSpans(spans: readonly TextSpan[] | undefined, length: number): TextSpan[] {
  const sorted = (spans ?? [])
    .map((s) => ({ start: Math.max(0, s.start), end: Math.min(length, s.end) }))
    .filter((s) => s.end > s.start)
    .sort((a, b) => a.start - b.start);
  const out: TextSpan[] = [];
  for (const s of sorted) {
    const last = out.at(-1);
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else out.push({ ...s });
  }
  return out;
}

/** The text cut into plain runs and marked runs. */
function pieces(text: string, spans: TextSpan[]): ReactNode[] {
  const out: ReactNode[] = [];
  let at = 0;
  for (const s of spans) {
    if (s.start > at) out.push(text.slice(at, s.start));
    out.push(
      <mark key={s.start} className="span-mark">
        {text.slice(s.start, s.end)}
      </mark>,
    );
    at = s.end;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

/** The text with the spans marked, white space kept as written. */
export function MarkedText({
  text,
  spans,
  label,
}: {
  text: string;
  spans: readonly TextSpan[];
  label: string;
}) {
  return (
    <figure className="marked-text" aria-label={label}>
      <p dir="auto">{pieces(text, cleanSpans(spans, text.length))}</p>
    </figure>
  );
}

/** What the marks layer copies from the editor so its text wraps as the editor's does. */
const COPIED = [
  'fontFamily',
  'fontSize',
  'fontWeight',
  'lineHeight',
  'letterSpacing',
  'paddingTop',
  'paddingRight',
  'paddingBottom',
  'paddingLeft',
  'borderTopWidth',
  'borderRightWidth',
  'borderBottomWidth',
  'borderLeftWidth',
  'boxSizing',
] as const;

/**
 * The shown spans marked over the editor: mounted right after the textarea, a layer laid on it
 * with the same box, font and wrapping, its text transparent but for the marks, and scrolled
 * with it. It never takes a click (pointer-events: none), so the writer keeps typing.
 */
export function EditorMarks({ text }: { text: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const [box, setBox] = useState<CSSProperties | null>(null);
  const marks = useMarksFor(text);
  useLayoutEffect(() => {
    const editor = ref.current?.previousElementSibling;
    if (!(editor instanceof HTMLTextAreaElement) || marks.length === 0) return;
    const layer = ref.current!;
    const place = () => {
      const css = getComputedStyle(editor);
      const copied: Record<string, string> = {};
      for (const k of COPIED) copied[k] = css[k];
      setBox({
        ...copied,
        top: editor.offsetTop,
        left: editor.offsetLeft,
        width: editor.offsetWidth,
        height: editor.offsetHeight,
      });
      layer.scrollTop = editor.scrollTop;
    };
    place();
    const scrolled = () => {
      layer.scrollTop = editor.scrollTop;
    };
    editor.addEventListener('scroll', scrolled);
    const resized = new ResizeObserver(place);
    resized.observe(editor);
    return () => {
      editor.removeEventListener('scroll', scrolled);
      resized.disconnect();
    };
  }, [marks.length]);
  return (
    <div
      ref={ref}
      className="span-layer"
      aria-hidden="true"
      style={marks.length && box ? box : { display: 'none' }}
    >
      {pieces(text, marks)}
      {/* A closing line break keeps the layer as tall as the text when it ends in one. */}
      {'\n'}
    </div>
  );
}

/**
 * The spans the writer asked to see (a click on a signal), shared by the score panel, the
 * editor's marks and the preview, so one click marks the words in all three. `text` is the text
 * the spans were found in: a view marks them only while it shows that text.
 */
interface Shown {
  text: string;
  spans: TextSpan[];
  /** Which signal asked: its panel shows it as pressed. */
  key: string;
}
let shown: Shown | null = null;
const listeners = new Set<() => void>();

export function showSpans(next: Shown | null): void {
  shown = next;
  for (const l of listeners) l();
}

function subscribe(l: () => void) {
  listeners.add(l);
  return () => listeners.delete(l);
}

/** The spans shown now, or null. */
export const useShownSpans = (): Shown | null => useSyncExternalStore(subscribe, () => shown);

/** The shown spans that fall in `text` when it is the text they were found in (or starts it: a folded preview). */
export function useMarksFor(text: string, whole: string = text): TextSpan[] {
  const now = useShownSpans();
  if (!now || now.text !== whole) return [];
  return cleanSpans(now.spans, text.length);
}

/** The text, with the shown spans marked when it is the text they were found in. */
export function ShownMarks({ text, whole = text }: { text: string; whole?: string }) {
  const marks = useMarksFor(text, whole);
  return <>{marks.length ? pieces(text, marks) : text}</>;
}

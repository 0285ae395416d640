import { isJsSpace } from './text-scan.ts';

/** Paragraphs (runs of non-blank lines), non-blank lines and the longest line of a post. */
export function paragraphStats(text: string): { paragraphs: number; longest: number; lines: number } {
  let paragraphs = 0;
  let longest = 0;
  let lines = 0;
  let inParagraph = false;
  // The lines between line breaks, read in place (splitting and trimming each cost about 1% of
  // the scorer's time, 2026-11-29): a line of white space only is blank.
  for (let start = 0; ; ) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    let blank = true;
    for (let i = start; i < end && blank; i++) blank = isJsSpace(text.charCodeAt(i));
    if (blank) inParagraph = false;
    else {
      if (!inParagraph) paragraphs++;
      inParagraph = true;
      lines++;
      // A single line break already breaks the visual block on the feed: measure lines.
      if (end - start > longest) longest = end - start;
    }
    if (newline === -1) break;
    start = newline + 1;
  }
  return { paragraphs, longest, lines };
}

/** A post's first words for lists: up to `max` characters of its first line, cut at a word. */
export function openingWords(text: string, max = 80): string {
  const line = (text.split('\n').find((l) => l.trim()) ?? '').trim();
  if (line.length <= max) return line || '(no text)';
  const cut = line.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

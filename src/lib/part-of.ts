/**
 * Part of a whole as the subject of a sentence a person reads, with the verb's number:
 * "The row" (a whole of one), "All 3 rows", "1 of 3 rows" (singular), "2 of 3 rows".
 */
export function partOf(part: number, whole: number, one: string, many = `${one}s`) {
  const subject =
    whole === 1 ? `The ${one}` : part === whole ? `All ${whole} ${many}` : `${part} of ${whole} ${many}`;
  const plural = whole !== 1 && (part === whole || part !== 1);
  return { subject, is: plural ? 'are' : 'is' };
}

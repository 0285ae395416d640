import { readPostsCsv } from '../scripts/lib/posts-csv.ts';

/**
 * The posts the scorer benches score: the calibration CSV's posts joined end to end and cut
 * into pieces of `chars` characters (BENCH_POSTS_CSV picks another file).
 */
export function benchPosts(chars = 1_300): string[] {
  const out: string[] = [];
  let buffer = '';
  for (const row of readPostsCsv(process.env.BENCH_POSTS_CSV ?? '../shared/data/linkedin-posts-2025.csv')) {
    buffer += (buffer ? '\n\n' : '') + row.content;
    if (buffer.length >= chars) {
      out.push(buffer.slice(0, chars));
      buffer = '';
    }
  }
  return out;
}

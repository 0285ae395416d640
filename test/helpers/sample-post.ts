/**
 * One realistic post that several tests write with: four paragraphs, numbers, a list said in a
 * sentence, and the author's own closing question. The newcomer walk found the offline rewrite
 * replacing that question on platformB, so the console and rewrite tests share it.
 */
export const PIPELINE_QUESTION = 'What is the one step in your pipeline you have never measured?';

export const PIPELINE_POST = [
  'We cut our deploy time from 42 minutes to 6 without buying anything new.',
  '',
  'Three changes did it: we cached dependencies per lockfile, split the test suite by timing data, and stopped building images nobody pulled.',
  '',
  'The surprise: the slowest step was waiting for a shared runner, not the build itself.',
  '',
  PIPELINE_QUESTION,
].join('\n');

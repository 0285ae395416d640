/**
 * platformB's text limit is 280 weighted characters. Decided (PLATFORM_B.md): every code point
 * counts 1 and every URL counts 23, whatever its length (the platform shortens links). The
 * counting lives in the typed client (packages/client/src/text-length.ts), so the API, the
 * console and client programs share one implementation.
 */
export {
  PLATFORM_B_MAX_TEXT,
  platformBWeightedLength as weightedLength,
} from '../../../packages/client/src/text-length.ts';

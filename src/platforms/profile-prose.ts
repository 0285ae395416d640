import { countingWords } from '../../packages/client/src/text-length.ts';
import { DEFAULT_PLATFORM, type PartLimit, PLATFORM_IDS, PROFILES } from './profiles.ts';

/**
 * What the OpenAPI and MCP tool descriptions say about the platforms, written from their
 * profiles (src/platforms/<id>/profile.ts) so a description never restates a number or a
 * platform's name that the registry could change underneath it: a new platform needs no prose edit.
 */

const number = (n: number) => n.toLocaleString('en-US');
const length = ({ max, counting }: PartLimit) => `${number(max)} ${countingWords(counting)}`;
const profiles = PLATFORM_IDS.map((id) => PROFILES[id]);

/** "platformA 3,000 characters and 1-20 images, or one video, or one PDF document; platformB …" */
export const postLimitsProse = () =>
  profiles.map((p) => `${p.displayName} ${length(p.post)} and ${p.media.summary}`).join('; ');

/** "`thread` (platformB only, up to 24 follow-up parts of 280 weighted characters …, each …)" */
export function threadProse(): string {
  const threaded = profiles.flatMap((p) => (p.threads ? [{ name: p.displayName, threads: p.threads }] : []));
  const each = threaded
    .map(
      ({ name, threads }) =>
        `${threaded.length > 1 ? `${name}: ` : ''}up to ${threads.maxFollowUps} follow-up parts of ${length(threads.reply)}`,
    )
    .join('; ');
  return `\`thread\` (${threaded.map((t) => t.name).join(' and ')} only, ${each}, each published as a reply to the part before)`;
}

/** "platformA a comment of up to 1,250 characters, platformB a reply" */
export const firstCommentProse = () =>
  profiles
    .map((p) =>
      p.firstComment.as === 'comment'
        ? `${p.displayName} a comment of up to ${length(p.firstComment.limit)}`
        : `${p.displayName} a reply`,
    )
    .join(', ');

/** "default platformA; platformB accepted" */
export function platformChoiceProse(): string {
  const others = profiles.filter((p) => p.id !== DEFAULT_PLATFORM).map((p) => p.displayName);
  return `default ${PROFILES[DEFAULT_PLATFORM].displayName}; ${others.join(' and ')} accepted`;
}

/** "platformA: 1-20 images, or one video, or one PDF document; platformB: …" */
export const mediaRulesProse = () => profiles.map((p) => `${p.displayName}: ${p.media.summary}`).join('; ');

/** "platformB" (or "platformB and platformC"): the platforms that publish follow-up parts as a thread. */
export const threadedPlatformsProse = () =>
  profiles
    .filter((p) => p.threads)
    .map((p) => p.displayName)
    .join(' and ') || 'no platform';

/** "platformA": the platforms without threads, where a follow-up belongs in the first comment. */
export const unthreadedPlatformsProse = () =>
  profiles
    .filter((p) => !p.threads)
    .map((p) => p.displayName)
    .join(' and ') || 'no platform';

/** "platformA a comment under it, platformB a reply to the last part" */
export const firstCommentShapeProse = () =>
  profiles
    .map(
      (p) =>
        `${p.displayName} ${p.firstComment.as === 'comment' ? 'a comment under it' : 'a reply to the last part'}`,
    )
    .join(', ');

/** "platformB: a URL counts 23" (the platforms whose post length weighs URLs), or "" when none does. */
export const urlWeightProse = () =>
  profiles
    .filter((p) => p.post.counting.urlWeight !== null)
    .map((p) => `${p.displayName}: a URL counts ${p.post.counting.urlWeight}`)
    .join('; ');

/** "`platformA`": the platform a request means when it names none. */
export const defaultPlatformProse = () => `\`${DEFAULT_PLATFORM}\``;

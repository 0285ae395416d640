import { countingWords } from '../../../packages/client/src/text-length.ts';
import { DEFAULT_PLATFORM, type PartLimit, PLATFORM_IDS, PROFILES } from '../../platforms/profiles.ts';

/**
 * What the tool descriptions say about each platform's limits, written from the platforms'
 * profiles (src/platforms/<id>/profile.ts) so a description never restates a number that the
 * profile could change underneath it.
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

import { restError } from '../http.ts';
import { readLittleText } from './little-text.ts';
import type { AAsset, ContentKind, ValidPost } from './state.ts';

/** Checks a create-post body the way the platform does; returns what the post carries. */

const ALLOWED_FIELDS = new Set([
  'author',
  'commentary',
  'visibility',
  'distribution',
  'lifecycleState',
  'isReshareDisabledByAuthor',
  'content',
  'contentLandingPage',
  'contentCallToActionLabel',
  'container',
  'reshareContext',
]);
const VISIBILITIES = new Set(['PUBLIC', 'CONNECTIONS', 'LOGGED_IN', 'CONTAINER']);
const POLL_DURATIONS = new Set(['ONE_DAY', 'THREE_DAYS', 'SEVEN_DAYS', 'FOURTEEN_DAYS']);
export const MAX_COMMENTARY = 3000;

const invalid = (message: string) => restError(422, message, 'UNPROCESSABLE_ENTITY');
const isObject = (v: unknown): v is Record<string, unknown> =>
  Boolean(v) && typeof v === 'object' && !Array.isArray(v);

export function validatePost(
  body: Record<string, unknown>,
  lookup: (urn: string) => AAsset | undefined,
): ValidPost {
  const unknown = Object.keys(body).filter((k) => !ALLOWED_FIELDS.has(k));
  if (unknown.length > 0)
    throw invalid(`Unpermitted fields present in REQUEST_BODY: [${unknown.join(', ')}]`);
  const { author, commentary, visibility, distribution, lifecycleState, isReshareDisabledByAuthor } = body;
  if (typeof author !== 'string' || !/^urn:li:(person|organization):[^:]+$/.test(author)) {
    throw invalid('author must be a person or organization URN');
  }
  if (typeof commentary !== 'string') throw invalid('commentary must be a string');
  const read = readLittleText(commentary);
  if (!read.ok) throw invalid(read.message);
  if (read.text.length > MAX_COMMENTARY)
    throw invalid(`commentary is longer than ${MAX_COMMENTARY} characters`);
  if (typeof visibility !== 'string' || !VISIBILITIES.has(visibility))
    throw invalid('visibility is missing or invalid');
  if (
    !isObject(distribution) ||
    !['MAIN_FEED', 'NONE'].includes(String(distribution.feedDistribution)) ||
    !Array.isArray(distribution.targetEntities) ||
    !Array.isArray(distribution.thirdPartyDistributionChannels)
  ) {
    throw invalid(
      'distribution must have feedDistribution, targetEntities[] and thirdPartyDistributionChannels[]',
    );
  }
  if (lifecycleState !== 'PUBLISHED' && lifecycleState !== 'DRAFT')
    throw invalid('lifecycleState must be PUBLISHED or DRAFT');
  if (typeof isReshareDisabledByAuthor !== 'boolean')
    throw invalid('isReshareDisabledByAuthor must be a boolean');

  const parsed =
    body.content === undefined
      ? { kind: 'none' as const, mediaIds: [] }
      : checkContent(body.content, author, lookup);
  if (parsed.kind === 'none' && read.text.trim() === '') throw invalid('A post needs commentary or content');
  return {
    author,
    commentary,
    text: read.text,
    visibility,
    lifecycleState,
    contentKind: parsed.kind,
    content: body.content === undefined ? null : (body.content as Record<string, unknown>),
    mediaIds: parsed.mediaIds,
  };
}

function checkContent(
  content: unknown,
  author: string,
  lookup: (urn: string) => AAsset | undefined,
): { kind: ContentKind; mediaIds: string[] } {
  if (!isObject(content)) throw invalid('content must be an object');
  const keys = Object.keys(content);
  if (keys.length !== 1) throw invalid('content must have exactly one of media, multiImage, article, poll');
  const usable = (urn: unknown, kinds: string[], where: string): AAsset => {
    if (typeof urn !== 'string') throw invalid(`${where}.id must be a URN`);
    const asset = lookup(urn);
    if (!asset || !kinds.includes(asset.kind)) throw invalid(`${where}.id ${urn} does not exist`);
    if (asset.owner !== author) throw invalid(`${where}.id ${urn} belongs to another owner`);
    if (asset.status !== 'AVAILABLE')
      throw invalid(`${where}.id ${urn} is not available (status ${asset.status})`);
    return asset;
  };
  if (isObject(content.media)) {
    const asset = usable(content.media.id, ['image', 'video', 'document'], 'content.media');
    const title = content.media.title;
    if (title !== undefined && typeof title !== 'string')
      throw invalid('content.media.title must be a string');
    if (asset.kind === 'document' && (typeof title !== 'string' || title.trim() === '')) {
      throw invalid('content.media.title is required for a document');
    }
    if (content.media.altText !== undefined && typeof content.media.altText !== 'string') {
      throw invalid('content.media.altText must be a string');
    }
    return { kind: asset.kind, mediaIds: [asset.id] };
  }
  if (isObject(content.multiImage)) {
    const images = content.multiImage.images;
    if (!Array.isArray(images) || images.length < 2 || images.length > 20) {
      throw invalid('content.multiImage.images must hold 2 to 20 images');
    }
    const ids = images.map(
      (img, i) => usable(isObject(img) ? img.id : undefined, ['image'], `content.multiImage.images[${i}]`).id,
    );
    return { kind: 'multiImage', mediaIds: ids };
  }
  if (isObject(content.article)) {
    const { source, title } = content.article;
    if (typeof source !== 'string' || !URL.canParse(source))
      throw invalid('content.article.source must be a URL');
    if (typeof title !== 'string' || title === '') throw invalid('content.article.title is required');
    return { kind: 'article', mediaIds: [] };
  }
  if (isObject(content.poll)) {
    const { question, options, settings } = content.poll;
    if (typeof question !== 'string' || question === '') throw invalid('content.poll.question is required');
    if (
      !Array.isArray(options) ||
      options.length < 2 ||
      options.length > 4 ||
      !options.every((o) => isObject(o) && typeof o.text === 'string')
    ) {
      throw invalid('content.poll.options must hold 2 to 4 {text}');
    }
    if (!isObject(settings) || !POLL_DURATIONS.has(String(settings.duration)))
      throw invalid('content.poll.settings.duration is invalid');
    return { kind: 'poll', mediaIds: [] };
  }
  throw invalid('content must have exactly one of media, multiImage, article, poll');
}

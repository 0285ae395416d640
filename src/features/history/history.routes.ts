import { addCsvBodyParser } from '../../api/csv-body.ts';
import { DeleteResult, errorResponses, IdParams } from '../../api/schemas.ts';
import type { FeatureRoutes } from '../feature-routes.ts';
import {
  HistoryClearResult,
  HistoryImportQuery,
  HistoryImportRequest,
  HistoryImportResult,
  HistoryListQuery,
  HistoryListResult,
  HistoryPreviewResult,
  MAX_IMPORT_ITEMS,
} from './history.schemas.ts';
import { clearHistory, deleteHistoryEntry, importHistory, listHistory } from './history.service.ts';
import { csvToItems } from './history-csv.ts';
import { previewHistory } from './history-preview.ts';

const tags = ['history'];

/** 1,000 posts of up to a few thousand characters each, as JSON or CSV. */
const IMPORT_BODY_LIMIT = 16 * 1024 * 1024;

const isCsv = (contentType: string | undefined) => /^text\/csv\b/i.test(contentType ?? '');

export const historyRoutes: FeatureRoutes = async (app) => {
  addCsvBodyParser(app, { bodyLimit: IMPORT_BODY_LIMIT, label: ({ line }) => `line ${line}` });

  app.post(
    '/v1/history',
    {
      config: { scope: 'write' },
      bodyLimit: IMPORT_BODY_LIMIT,
      // A CSV body is another spelling of the same request: read it into `{items}` before the
      // schema runs, with errors that name the CSV line and column.
      preValidation: async (request) => {
        if (isCsv(request.headers['content-type']))
          request.body = { items: csvToItems(String(request.body ?? '')) };
      },
      schema: {
        tags,
        summary: 'Import past posts with their results',
        description: `Send JSON \`{items: [...]}\` (1-${MAX_IMPORT_ITEMS}) or \`text/csv\` (UTF-8 unless the Content-Type names \`charset=windows-1252\` or \`iso-8859-1\`; bytes that do not decode are a 400 naming the line and byte offset) with a header row naming the same fields (also accepted: content, commentary, likes, numLikes, numComments, reposts, numShares, date, views, media_type). A text already in the history is updated, not added again (fields an item leaves out keep their values). Any invalid item fails the whole batch with a 400 whose details name the item (\`items[3].reactions\`) or the CSV line and column (\`line 4.likes\`); nothing of it is stored. With \`?dryRun=true\` (an extension) the same checks run and the answer (200 HistoryPreviewResult) previews each row as new or an update, with nothing written.`,
        consumes: ['application/json', 'text/csv'],
        querystring: HistoryImportQuery,
        body: HistoryImportRequest,
        response: {
          200: HistoryPreviewResult,
          201: HistoryImportResult,
          ...errorResponses(400, 401, 413, 415, 429),
        },
      },
    },
    async (request, reply) =>
      request.query.dryRun === 'true'
        ? reply.status(200).send(await previewHistory({ ctx: request.ctx, input: request.body }))
        : reply.status(201).send(await importHistory({ ctx: request.ctx, input: request.body })),
  );

  app.get(
    '/v1/history',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'List the history',
        description:
          'Imported posts and posts published through Postkit that have metrics (`source`), newest first by published time (entries without one last).',
        querystring: HistoryListQuery,
        response: { 200: HistoryListResult, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => listHistory({ ctx: request.ctx, input: request.query }),
  );

  app.delete(
    '/v1/history/:id',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Delete a history entry',
        description:
          'Removes an imported entry. A post published through Postkit stays history while it has metrics: 409 `not_imported`.',
        params: IdParams,
        response: { 200: DeleteResult, ...errorResponses(401, 404, 409, 429) },
      },
    },
    async (request) => deleteHistoryEntry({ ctx: request.ctx, input: request.params }),
  );

  app.delete(
    '/v1/history',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Delete the imported history',
        description: 'Removes every imported entry; posts published through Postkit stay.',
        response: { 200: HistoryClearResult, ...errorResponses(401, 429) },
      },
    },
    async (request) => clearHistory({ ctx: request.ctx, input: undefined }),
  );
};

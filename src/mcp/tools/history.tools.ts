import {
  HistoryImportRequest,
  HistoryImportResult,
  MAX_IMPORT_ITEMS,
} from '../../features/history/history.schemas.ts';
import { importHistory } from '../../features/history/history.service.ts';
import { InsightsQuery, InsightsResult } from '../../features/insights/insights.schemas.ts';
import { getInsights } from '../../features/insights/insights.service.ts';
import { defineTool } from '../tool.ts';

/** The author's history and what it shows: the same verbs as POST /v1/history and GET /v1/insights. */
export const historyTools = [
  defineTool({
    name: 'import_history',
    title: 'Import past posts with their results',
    description: `Imports 1-${MAX_IMPORT_ITEMS} of the author's past posts (items: text plus, when known, platform, publishedAt as epoch ms or an ISO date, media, reactions, comments, shares, impressions, clicks) into the account's history, which get_insights reads and from which a personal score is learned. A text already imported updates that entry (fields left out keep their values), so sending the same export again is safe. Any invalid item fails the whole batch (invalid_request naming items[i].field) and nothing is stored. Posts published through Postkit with metrics are history already. Free (no model quota). CSV files go through REST: POST /v1/history with Content-Type text/csv.`,
    input: HistoryImportRequest,
    output: HistoryImportResult,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    scope: 'write',
    run: (ctx, input) => importHistory({ ctx, input }),
    summarize: ({ imported, duplicates, total }) =>
      `Imported ${imported} new post${imported === 1 ? '' : 's'}; ${duplicates} already in the history were updated. History now holds ${total}.`,
  }),
  defineTool({
    name: 'get_insights',
    title: 'What works for this author',
    description:
      "Reports what the author's own history (import_history, plus Postkit posts with metrics) shows: the median engagement, the features their personal model weighs most (with effects measured in their posts), and the posting days and 3-hour windows that do better or worse (apart, and together as a weekday-by-window grid), named only where the data supports it (each part's note says when it does not). Pass timezone (IANA, e.g. Europe/Paris; default the account's time zone from its settings) to read days and hours in the author's time. Use it before planning when to post. Read-only and free.",
    input: InsightsQuery.strict(),
    output: InsightsResult,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    scope: 'read',
    run: (ctx, input) => getInsights({ ctx, input }),
    summarize: ({ basedOn, days, hours, grid, factors }) =>
      `From ${basedOn.withEngagement} posts with engagement. Factors: ${factors.note} Days: ${days.note} Hours: ${hours.note} Weekday and time: ${grid.note}`,
  }),
];

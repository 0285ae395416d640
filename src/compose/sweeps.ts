import { channelHealthSweep } from '../features/channels/token-health.sweep.ts';
import { personalModelSweep } from '../features/history/personal.sweep.ts';
import { metricsSweep } from '../features/metrics/metrics.sweep.ts';
import { metricsRetentionSweep } from '../features/metrics/retention.sweep.ts';
import { publishSweep } from '../features/posts/publishing/publish.sweep.ts';
import { seriesSweep } from '../features/series/series.sweep.ts';
import { webhookDeliverySweep } from '../features/webhooks/delivery.sweep.ts';
import type { Sweep } from '../jobs/runner.ts';

/**
 * Every background sweep, in the order a tick runs them. Composed here, above the feature
 * areas that define them, so the jobs kit knows no feature. Add a new sweep here.
 */
export const sweeps: Sweep[] = [
  publishSweep,
  channelHealthSweep,
  webhookDeliverySweep,
  metricsSweep,
  metricsRetentionSweep,
  personalModelSweep,
  seriesSweep,
];

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../context.ts';

/**
 * What every `*.routes.ts` exports. Its own module, so a routes file never imports the list of
 * routes (src/compose/routes.ts) that imports it back.
 */
export type FeatureRoutes = FastifyPluginAsyncZod<{ deps: AppDeps }>;

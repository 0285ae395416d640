import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../context.ts';
import { accountRoutes } from './account/account.routes.ts';
import { keyRoutes } from './keys/keys.routes.ts';
import { systemRoutes } from './system/system.routes.ts';

export type FeatureRoutes = FastifyPluginAsyncZod<{ deps: AppDeps }>;

/** Every feature's routes, registered in this order by the HTTP app. Add new areas here. */
export const featureRoutes: FeatureRoutes[] = [systemRoutes, accountRoutes, keyRoutes];

export * from './accounts.ts';
export * from './channels.ts';
export * from './events.ts';
export * from './media.ts';
export * from './memory.ts';
export * from './metrics.ts';
export * from './posts.ts';

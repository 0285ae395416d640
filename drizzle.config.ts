import { defineConfig } from 'drizzle-kit';

// `npx drizzle-kit generate --name <change>` writes the next SQL migration from src/db/schema.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema/index.ts',
  out: './src/db/migrations',
});

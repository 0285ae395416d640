import { type Config, ConfigError } from '../config/config.ts';
import { FilesystemStorage } from './filesystem.ts';
import { S3Storage } from './s3.ts';
import type { MediaStorage } from './storage.ts';

/** Picks the backend from configuration; S3 needs explicit credentials (no instance-metadata lookup). */
export function openStorage(config: Config): MediaStorage {
  if (!config.S3_BUCKET) return new FilesystemStorage(config.DATA_DIR);
  const missing = (['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'] as const).filter((name) => !config[name]);
  if (missing.length > 0) {
    throw new ConfigError(
      missing.map((variable) => ({ variable, message: 'required when S3_BUCKET is set' })),
    );
  }
  return new S3Storage({
    bucket: config.S3_BUCKET,
    endpoint: config.S3_ENDPOINT,
    region: config.S3_REGION ?? config.AWS_REGION ?? 'us-east-1',
    credentials: {
      accessKeyId: config.AWS_ACCESS_KEY_ID!,
      secretAccessKey: config.AWS_SECRET_ACCESS_KEY!,
      sessionToken: config.AWS_SESSION_TOKEN,
    },
  });
}

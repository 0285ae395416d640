import pino, { type Logger } from 'pino';

/** JSON logs; token-bearing and key-bearing fields are redacted wherever they appear. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'headers.authorization',
        '*.accessToken',
        '*.refreshToken',
        '*.access_token',
        '*.refresh_token',
        '*.apiKey',
        '*.secret',
        '*.client_secret',
      ],
      censor: '[redacted]',
    },
  });
}

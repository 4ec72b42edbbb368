import { LoggerService } from '@nestjs/common';
import pino, { Logger as Pino } from 'pino';
import { AppConfig } from '@dl/platform/config';

/** Paths never written to logs: credentials, secrets and keys wherever they appear. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'headers.authorization',
  '*.password',
  '*.passwordHash',
  '*.token',
  '*.accessToken',
  '*.appToken',
  '*.key',
  '*.secret',
  '*.apiKey',
  'password',
  'token',
  'key',
  'secret',
];

export function createLogger(config: AppConfig, app: string): Pino {
  return pino({
    name: app,
    level: config.LOG_LEVEL,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    base: { app },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}

/** Routes Nest's Logger (used across the code base) to pino as structured lines. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly pino: Pino) {}

  private write(level: 'info' | 'error' | 'warn' | 'debug' | 'trace', message: unknown, params: unknown[]) {
    const context = typeof params[params.length - 1] === 'string' ? (params.pop() as string) : undefined;
    if (message !== null && typeof message === 'object') {
      const obj = message instanceof Error ? { err: message } : message;
      const msg = typeof params[0] === 'string' ? (params.shift() as string) : undefined;
      this.pino[level]({ context, ...(obj as object) }, msg);
    } else {
      const stack = level === 'error' && typeof params[0] === 'string' ? params[0] : undefined;
      this.pino[level]({ context, ...(stack ? { stack } : {}) }, String(message));
    }
  }

  log(message: unknown, ...params: unknown[]) {
    this.write('info', message, params);
  }
  error(message: unknown, ...params: unknown[]) {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]) {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]) {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]) {
    this.write('trace', message, params);
  }
}

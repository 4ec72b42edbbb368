import { LoggerService } from '@nestjs/common';
import pino, { DestinationStream, Logger as Pino } from 'pino';
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

/** Query parameters that carry credentials (`?key=` of Firebase Dynamic Links' API). */
const SECRET_QUERY = /([?&](?:key|access_token)=)[^&#]*/gi;

/** A request URL as logs may show it: credential query values replaced by `[redacted]`. */
export function redactUrl(url: string | undefined): string | undefined {
  return url?.includes('?') ? url.replace(SECRET_QUERY, '$1[redacted]') : url;
}

/**
 * Human log lines (LOG_FORMAT=pretty): one line an event, `HH:MM:ss.l LEVEL (app): message {fields}`,
 * coloured when stdout is a terminal. Written synchronously in this thread (no transport worker).
 */
export function prettyStream(): DestinationStream {
  // Required here, not at the top: JSON logs (the default) never load it (~7 MB resident in every process).
  const { PinoPretty: pretty } = require('pino-pretty') as typeof import('pino-pretty');
  return pretty({
    sync: true,
    singleLine: true,
    colorize: Boolean(process.stdout.isTTY) && process.env.NO_COLOR === undefined,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,app,context,reqId',
    messageFormat: '{if context}[{context}] {end}{msg}',
  });
}

export function createLogger(config: Pick<AppConfig, 'LOG_LEVEL' | 'LOG_FORMAT'>, app: string): Pino {
  const options: pino.LoggerOptions = {
    name: app,
    level: config.LOG_LEVEL,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    base: { app },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return config.LOG_FORMAT === 'pretty' ? pino(options, prettyStream()) : pino(options);
}

/** Nest's start-up chatter (a line per module and per route): logged at debug, not info. */
const BOOT_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory']);

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
    const context = params[params.length - 1];
    this.write(typeof context === 'string' && BOOT_CONTEXTS.has(context) ? 'debug' : 'info', message, params);
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

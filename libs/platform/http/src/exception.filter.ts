import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { redactUrl } from '@dl/platform/observability';
import { renderError } from './error-body';

/** Logs an unexpected error with its request id and sends the contract's body. */
export function sendError(err: unknown, request: FastifyRequest, reply: FastifyReply, logger: Logger): void {
  const { body, headers, unexpected } = renderError(err);
  if (unexpected) {
    logger.error(
      { reqId: request.id, method: request.method, url: redactUrl(request.url), err },
      'Unhandled error',
    );
  }
  if (reply.sent) return;
  reply.status(body.statusCode).headers(headers).type('application/json; charset=utf-8').send(body);
}

/** The one global error filter of every app. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    sendError(exception, ctx.getRequest<FastifyRequest>(), ctx.getResponse<FastifyReply>(), this.logger);
  }
}

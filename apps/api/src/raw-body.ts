import { Readable } from 'node:stream';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PayloadTooLargeError } from '@dl/platform/http';

export type RawBodyRequest = FastifyRequest & { rawBody?: Buffer | null };

/** Signed webhook events are small; a kept body is at most this much. */
const MAX_RAW_BODY = 1024 * 1024;

/**
 * Keeps the exact bytes of the request body on `request.rawBody` for the paths `keeps` accepts
 * (the senders sign the body as sent, and parsed JSON cannot be re-serialized into the same
 * bytes); Fastify then parses the same bytes as usual. Other routes are untouched. Without a
 * Fastify adapter (a module compiled without an HTTP server) there is nothing to hook.
 */
export function captureRawBody(adapterHost: HttpAdapterHost | undefined, keeps: (path: string) => boolean): void {
  const fastify = adapterHost?.httpAdapter?.getInstance?.() as FastifyInstance | undefined;
  if (!fastify?.addHook) return;
  if (!fastify.hasRequestDecorator('rawBody')) fastify.decorateRequest('rawBody', null);
  fastify.addHook('preParsing', async (request, _reply, payload) => {
    if (!keeps(request.url.split('?')[0])) return payload;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of payload) {
      size += (chunk as Buffer).length;
      if (size > MAX_RAW_BODY) throw new PayloadTooLargeError();
      chunks.push(chunk as Buffer);
    }
    const raw = Buffer.concat(chunks);
    (request as RawBodyRequest).rawBody = raw;
    const stream = Readable.from([raw]) as Readable & { receivedEncodedLength?: number };
    stream.receivedEncodedLength = raw.length;
    return stream;
  });
}

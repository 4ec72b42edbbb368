import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PayloadTooLargeError } from '@dl/platform/http';

export type RawBodyRequest = FastifyRequest & { rawBody?: Buffer | null };

/** Stripe events are small; the webhook reads at most this much. */
const MAX_RAW_BODY = 1024 * 1024;

/**
 * Keeps the exact bytes of the request body on `request.rawBody` for the paths given (the
 * signature is over the bytes, not over re-serialized JSON); Fastify then parses the same
 * bytes as usual. Other routes are untouched.
 */
export function captureRawBody(fastify: FastifyInstance, paths: readonly string[]): void {
  if (!fastify.hasRequestDecorator('rawBody')) fastify.decorateRequest('rawBody', null);
  fastify.addHook('preParsing', async (request, _reply, payload) => {
    if (!paths.includes(request.url.split('?')[0])) return payload;
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

import { Readable } from 'node:stream';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PayloadTooLargeError } from '@dl/platform/http';

/** Paths whose exact request bytes are kept (their senders sign the body as sent). */
export const RAW_BODY_PREFIX = '/integrations/';
const MAX_RAW_BODY = 1024 * 1024;

export type RawBodyRequest = FastifyRequest & { rawBody?: Buffer };

/**
 * Keeps the exact bytes of the integration endpoints' bodies on `request.rawBody` (Stripe and
 * Shopify sign them as sent; the parsed JSON cannot be re-serialized into the same bytes), and
 * only for them: every other route parses as before.
 */
@Injectable()
export class RawBodyHook implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.addHook('preParsing', async (request: RawBodyRequest, _reply, payload) => {
      if (!request.url.startsWith(RAW_BODY_PREFIX)) return payload;
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of payload) {
        size += (chunk as Buffer).length;
        if (size > MAX_RAW_BODY) throw new PayloadTooLargeError();
        chunks.push(chunk as Buffer);
      }
      request.rawBody = Buffer.concat(chunks);
      const replay = Readable.from([request.rawBody]) as Readable & { receivedEncodedLength?: number };
      replay.receivedEncodedLength = size;
      return replay;
    });
  }
}

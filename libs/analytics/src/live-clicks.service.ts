import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';
import { LIVE_STREAM_TTL_MS, LiveClickMessage, liveClicksChannel, liveStreamsKey, MAX_LIVE_STREAMS } from '@dl/clicks';
import { domainError } from '@dl/platform/http';
import { RedisService } from '@dl/platform/redis';
import { CubeRepository } from './cube.repository';

export class TooManyLiveStreamsError extends domainError('LIVE_STREAM_LIMIT', `At most ${MAX_LIVE_STREAMS} live streams per organization`) {}

/** A comment line this often keeps proxies from closing an idle stream, and refreshes the stream's place. */
export const LIVE_HEARTBEAT_MS = 10_000;

/**
 * Takes a place among the organization's open streams unless MAX_LIVE_STREAMS are open: one key,
 * atomic, so api processes behind a balancer share the bound (and a Redis Cluster sees one slot).
 * Places not refreshed for LIVE_STREAM_TTL_MS (a process that died) are dropped first.
 */
const TAKE_PLACE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[4]))
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1`;

type Listener = (clicks: LiveClickMessage[]) => void;

/**
 * Server-Sent Events of an organization's clicks (decisions §24), fed by the worker's
 * LiveClickPublisher through Redis pub/sub. One subscriber connection per process, subscribed to
 * the channels of the organizations it streams; short codes looked up once per link.
 */
@Injectable()
export class LiveClicksService implements OnModuleDestroy {
  private readonly logger = new Logger(LiveClicksService.name);
  private subscriber: Redis | null = null;
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly shortCodes = new Map<string, string>();

  constructor(
    private readonly redis: RedisService,
    private readonly cube: CubeRepository,
  ) {}

  onModuleDestroy(): void {
    this.subscriber?.disconnect();
  }

  /**
   * Opens a stream of the organization's clicks (of one link when `linkId` is given): an SSE body
   * that ends its place when the client goes. Throws TooManyLiveStreamsError for the 21st.
   */
  async open(organizationId: string, linkId?: string): Promise<Readable> {
    const key = liveStreamsKey(this.redis, organizationId);
    const id = randomUUID();
    const taken = await this.redis.client.eval(TAKE_PLACE, 1, key, Date.now(), id, MAX_LIVE_STREAMS, LIVE_STREAM_TTL_MS);
    if (taken !== 1) throw new TooManyLiveStreamsError();

    const body = new Readable({ read() {} });
    const listener: Listener = (clicks) => {
      for (const click of clicks) {
        if (linkId && click.linkId !== linkId) continue;
        void this.withShortCode(organizationId, click).then((event) => body.push(`event: click\ndata: ${JSON.stringify(event)}\n\n`));
      }
    };
    const heartbeat = setInterval(() => {
      body.push(': keep-alive\n\n');
      void this.redis.client.zadd(key, Date.now(), id).then(() => this.redis.client.pexpire(key, LIVE_STREAM_TTL_MS)).catch(() => undefined);
    }, LIVE_HEARTBEAT_MS);
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      void this.unlisten(organizationId, listener);
      void this.redis.client.zrem(key, id).catch(() => undefined);
    };
    body.on('close', close);
    body.on('error', close);
    try {
      await this.listen(organizationId, listener);
    } catch (err) {
      close();
      throw err;
    }
    // The first bytes: the client knows the stream is open (and the subscription is in place).
    body.push(': open\n\n');
    return body;
  }

  private async withShortCode(organizationId: string, click: LiveClickMessage) {
    let shortCode = this.shortCodes.get(click.linkId);
    if (shortCode === undefined) {
      const [link] = await this.cube.links(organizationId, [click.linkId]);
      shortCode = link?.shortCode ?? '';
      if (this.shortCodes.size > 50_000) this.shortCodes.clear();
      this.shortCodes.set(click.linkId, shortCode);
    }
    const { id, linkId, clickedAt, countryCode, city, device, os, browser, referrerHost } = click;
    return { id, linkId, shortCode, clickedAt, countryCode, city, device, os, browser, referrerHost };
  }

  private subscriberClient(): Redis {
    if (this.subscriber) return this.subscriber;
    // Commands wait for the connection (the first stream opens it); pub/sub needs no per-command retries.
    const sub = this.redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null });
    sub.on('message', (channel: string, message: string) => {
      const organizationId = channel.slice(channel.lastIndexOf(':') + 1);
      const set = this.listeners.get(organizationId);
      if (!set) return;
      let clicks: LiveClickMessage[];
      try {
        clicks = JSON.parse(message) as LiveClickMessage[];
      } catch {
        return;
      }
      for (const l of set) l(clicks);
    });
    // A reconnection subscribes again to every organization streamed here.
    sub.on('ready', () => {
      const channels = [...this.listeners.keys()].map((o) => liveClicksChannel(this.redis, o));
      if (channels.length) sub.subscribe(...channels).catch((err: unknown) => this.logger.warn({ err }, 'live resubscribe failed'));
    });
    this.subscriber = sub;
    return sub;
  }

  private async listen(organizationId: string, listener: Listener): Promise<void> {
    let set = this.listeners.get(organizationId);
    if (!set) this.listeners.set(organizationId, (set = new Set()));
    set.add(listener);
    if (set.size === 1) await this.subscriberClient().subscribe(liveClicksChannel(this.redis, organizationId));
  }

  private async unlisten(organizationId: string, listener: Listener): Promise<void> {
    const set = this.listeners.get(organizationId);
    if (!set) return;
    set.delete(listener);
    if (set.size) return;
    this.listeners.delete(organizationId);
    await this.subscriber?.unsubscribe(liveClicksChannel(this.redis, organizationId)).catch(() => undefined);
  }
}

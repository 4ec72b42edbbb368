import { PrismaService } from '@dl/platform/db';

/** How many rows of `clicks` a link has. */
export async function storedClicks(prisma: PrismaService, linkId: string): Promise<number> {
  return (await prisma.$queryRaw<Array<{ n: number }>>`SELECT count(*)::int AS n FROM clicks WHERE link_id = ${linkId}::uuid`)[0].n;
}

/** A link's clicks summed over its daily `total` rollups. */
export async function rolledUpClicks(prisma: PrismaService, linkId: string): Promise<number> {
  return (
    await prisma.$queryRaw<Array<{ n: number }>>`
      SELECT coalesce(sum(clicks), 0)::int AS n FROM click_rollups WHERE link_id = ${linkId}::uuid AND dimension = 'total'`
  )[0].n;
}

/** Polls `probe` until `ok` holds for its value and answers that value; after `timeoutMs`, fails showing the last one. */
export async function waitForValue<T>(probe: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 20_000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

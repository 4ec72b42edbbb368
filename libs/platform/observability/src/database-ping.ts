/**
 * Optional provider (exported by a global module) of /health's database probe, for an app
 * that reads Postgres without Prisma (the redirect edge): its /health then never starts
 * Prisma's query engine. Without it the probe is Prisma's `SELECT 1`.
 */
export const DATABASE_PING = Symbol('DATABASE_PING');
export type DatabasePing = () => Promise<unknown>;

import { Prisma } from './generated/prisma/client';

/** True when err is a unique-constraint violation (optionally on one of `fields`). */
export function isUniqueViolation(err: unknown, field?: string): boolean {
  if (!(err instanceof Prisma.PrismaClientKnownRequestError) || err.code !== 'P2002') return false;
  if (!field) return true;
  const target = JSON.stringify(err.meta ?? {});
  return target.includes(field);
}

export * from './db.module';
export * from './prisma.service';
export * from './errors';
export { Prisma } from './generated/prisma/client';
export type * from './generated/prisma/client';
export { Tier, Role, AppPlatform, PixelEventType, DeliveryStatus, DomainStatus } from './generated/prisma/enums';
export * from './pg-pool';
export * from './storable-text';
export * from './bisect-write';

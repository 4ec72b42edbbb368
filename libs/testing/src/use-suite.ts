import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INestApplicationContext } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig } from '@dl/platform/config';
import { PrismaService } from '@dl/platform/db';
import { createTestEnv, RunningApp, startApp, TestEnv } from './harness';
import { createServiceContext } from './services';
import { repositoryEnv } from './suites';

/** Something a suite started and must stop: a server, an environment, a process, a client, or a function that undoes it. */
export type Closable =
  | { close(): unknown }
  | { teardown(): unknown }
  | { stop(): unknown }
  | { onModuleDestroy(): unknown }
  | (() => unknown);

/** Registers what to undo after the suite's tests and hands it back: `const api = own(await startApp(...))`. */
export type Own = <T extends Closable>(thing: T) => T;

function undo(thing: Closable): unknown {
  if (typeof thing === 'function') return thing();
  if ('close' in thing) return thing.close();
  if ('teardown' in thing) return thing.teardown();
  if ('stop' in thing) return thing.stop();
  return thing.onModuleDestroy();
}

/** Setup starts databases and apps: on a loaded host that takes longer than a test's own 30 s. */
const SUITE_HOOK_TIMEOUT_MS = 120_000;

/**
 * A suite's shared state, made once before its tests (beforeAll) and undone after them (afterAll):
 * what `setup` passed to `own` is undone last first, also when setup failed half-way. What this
 * returns stands for what `setup` resolves to once beforeAll has run: read it in tests and hooks,
 * never while `describe` runs (that throws, naming the field).
 */
export function useSuite<T extends object>(setup: (own: Own) => Promise<T>, timeout = SUITE_HOOK_TIMEOUT_MS): T {
  let made: T | undefined;
  const undos: Closable[] = [];
  beforeAll(async () => {
    made = await setup((thing) => (undos.push(thing), thing));
  }, timeout);
  afterAll(async () => {
    let failure: unknown;
    for (const thing of undos.reverse()) {
      try {
        await undo(thing);
      } catch (err) {
        failure ??= err;
      }
    }
    if (failure) throw failure;
  }, timeout);
  return new Proxy({} as T, {
    get(_target, key) {
      if (made === undefined) throw new Error(`suite state "${String(key)}" read before its beforeAll made it`);
      return Reflect.get(made, key, made);
    },
    has: (_target, key) => made !== undefined && key in made,
  });
}

/** A new directory in the system's temporary folder (named `prefix` and a random tail), removed with the suite. */
export function tempDirOf(own: Own, prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  own(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A suite on a fresh test environment (database and Redis prefix), with what `setup` adds; the environment is torn down last. */
export function useTestEnv<T extends object = object>(
  overrides: Record<string, string> = {},
  setup?: (env: TestEnv, own: Own) => Promise<T>,
  timeout?: number,
): T & { env: TestEnv } {
  return useSuite(async (own) => {
    const env = own(await createTestEnv(overrides));
    return { ...((await setup?.(env, own)) as T), env };
  }, timeout);
}

/** A suite with one app listening on loopback (`server`) over a fresh test environment, then what `setup` adds. */
export function useApp<T extends object = object>(
  create: (config: AppConfig) => Promise<NestFastifyApplication>,
  overrides: Record<string, string> = {},
  setup?: (env: TestEnv, own: Own, server: RunningApp) => Promise<T>,
  timeout?: number,
): T & { env: TestEnv; server: RunningApp } {
  return useTestEnv(overrides, async (env, own) => {
    const server = own(await startApp(create, env.config));
    return { ...((await setup?.(env, own, server)) as T), server };
  }, timeout);
}

/** A suite with domain modules wired as an app wires them, without HTTP (`app`, see createServiceContext), then what `setup` adds. */
export function useServices<T extends object = object>(
  modules: Parameters<typeof createServiceContext>[1],
  overrides: Record<string, string> = {},
  setup?: (app: INestApplicationContext, env: TestEnv, own: Own) => Promise<T>,
): T & { env: TestEnv; app: INestApplicationContext } {
  return useTestEnv(overrides, async (env, own) => {
    const app = own(await createServiceContext(env, modules));
    return { ...((await setup?.(app, env, own)) as T), app };
  });
}

/** A repository spec's suite: the repository on a fresh test database with two seeded organizations (see repositoryEnv). */
export function useRepository<R>(
  make: (prisma: PrismaService, env: TestEnv) => R,
  seeds?: Parameters<typeof repositoryEnv>[1],
): Awaited<ReturnType<typeof repositoryEnv<R>>> {
  return useSuite(async (own) => {
    const made = await repositoryEnv(make, seeds);
    own(made.env);
    return made;
  });
}

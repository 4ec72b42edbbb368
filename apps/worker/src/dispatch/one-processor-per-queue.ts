import { WorkerHost } from '@nestjs/bullmq';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { QueueName, Queues } from '@dl/platform/queue';
import { QueueProcessor } from './queue-processor';

/**
 * Refuses a worker whose consumers do not cover the registry: every queue needs exactly one
 * processor, and every BullMQ consumer must be a `QueueProcessor` (the one dispatcher).
 */
export function assertOneProcessorPerQueue(hosts: readonly WorkerHost[]): void {
  const byQueue = new Map<QueueName, string[]>();
  const problems: string[] = [];
  for (const host of hosts) {
    if (!(host instanceof QueueProcessor)) {
      problems.push(`${host.constructor.name} is not a QueueProcessor`);
      continue;
    }
    const queue = (host as QueueProcessor<QueueName>).queue;
    byQueue.set(queue, [...(byQueue.get(queue) ?? []), host.constructor.name]);
  }
  for (const queue of Object.values(Queues)) {
    const processors = byQueue.get(queue) ?? [];
    if (processors.length === 0) problems.push(`queue "${queue}" has no processor`);
    if (processors.length > 1) problems.push(`queue "${queue}" has ${processors.length} processors (${processors.join(', ')})`);
  }
  if (problems.length) throw new Error(`Worker refused to start: ${problems.join('; ')}`);
}

/** Runs the check once every provider of the worker app exists (before the app listens). */
@Injectable()
export class OneProcessorPerQueue implements OnModuleInit {
  constructor(private readonly discovery: DiscoveryService) {}

  onModuleInit(): void {
    assertOneProcessorPerQueue(
      this.discovery
        .getProviders()
        .map((wrapper) => wrapper.instance as unknown)
        .filter((instance): instance is WorkerHost => instance instanceof WorkerHost),
    );
  }
}

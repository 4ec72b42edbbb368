import { Queue } from 'bullmq';

/**
 * Adds a job to `queue` and answers its return value once a worker has completed it; throws when
 * the job fails (naming why) or is not done within `timeoutMs`.
 */
export async function runJob(queue: Queue, name: string, data: object, timeoutMs = 30_000): Promise<unknown> {
  const job = await queue.add(name, data);
  const deadline = Date.now() + timeoutMs;
  while (!(await job.isCompleted())) {
    if (Date.now() > deadline || (await job.isFailed())) {
      throw new Error(`${name} did not complete: ${(await queue.getJob(job.id!))?.failedReason ?? `not done within ${timeoutMs} ms`}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return (await queue.getJob(job.id!))?.returnvalue;
}

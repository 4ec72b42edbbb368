import { Injectable, Logger, Optional } from '@nestjs/common';
import { databaseErrorText, PrismaService, toStorableJson } from '@dl/platform/db';
import { MetricsService } from '@dl/platform/observability';

const MAX_ERROR_LENGTH = 2000;

/** The message of an error, storable (NUL and lone surrogates stripped, bounded). */
export function deadLetterError(err: unknown): string {
  return String(toStorableJson(databaseErrorText(err))).slice(0, MAX_ERROR_LENGTH);
}

/**
 * Records an item a batch write refused on its own in `dead_letters` (payload made
 * storable: what failed to store once must store now), counts it in
 * `dead_letters_total{queue}` and logs it; the caller then drops it (decisions §14).
 */
@Injectable()
export class DeadLetters {
  private readonly logger = new Logger('DeadLetters');

  constructor(
    private readonly prisma: PrismaService,
    /** Absent in the operator CLI's contexts (no /metrics there). */
    @Optional() private readonly metrics?: MetricsService,
  ) {}

  async record(queue: string, payload: unknown, err: unknown): Promise<void> {
    const error = deadLetterError(err);
    const json = JSON.stringify(toStorableJson(payload));
    await this.prisma.$executeRaw`INSERT INTO dead_letters (queue, payload, error) VALUES (${queue}, ${json}::jsonb, ${error})`;
    this.metrics?.deadLetters.inc({ queue });
    this.logger.warn({ queue, error }, 'dead letter: an item the database refused was recorded and dropped');
  }
}

import { LinkValues } from '../link.types';

/** One CSV row mapped to link fields, before validation and template defaults. */
export interface MappedRow {
  shortCode: string | null;
  competitorId: string | null;
  /** The source platform's creation date, kept as the link's (null: now). */
  createdAt?: Date | null;
  /** The source platform's click count (kept in migrationMetadata). */
  clicks?: number | null;
  /** LinkValues plus `password` and `domain`, as the row gives them (validated like a create body). */
  fields: Partial<LinkValues> & { password?: string; domain?: string };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Path ids that are not UUIDs cannot name a row: they answer like a missing one. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

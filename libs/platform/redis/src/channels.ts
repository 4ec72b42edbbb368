/**
 * The link invalidation channel: the api publishes a changed link's `<code>` (`<domain>/<code>`
 * on a branded domain) or `@domains` after a domain change; every redirect instance subscribes.
 * Its one spelling, shared by the publishers (links, domains) and the subscriber (redirect).
 */
export function linkInvalidationChannel(redis: { key(...parts: string[]): string }): string {
  return redis.key('links', 'invalidate');
}

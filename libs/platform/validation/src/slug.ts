/**
 * A slug from a name: lowercase ASCII letters and digits, the rest folded into single hyphens
 * (accents dropped), at most `maxLength` characters; '' when nothing of the name is left.
 */
export function slugify(name: string, maxLength: number): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, maxLength)
    .replace(/-+$/g, '');
}

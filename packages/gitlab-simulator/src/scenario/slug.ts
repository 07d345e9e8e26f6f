import { createHash } from 'crypto';

/**
 * GitLab's environment slug (`CI_ENVIRONMENT_SLUG`): at most 24 characters,
 * `[a-z0-9-]`, starting with a letter, with a hash suffix whenever the name
 * had to be changed or shortened.
 */
export function environmentSlug(
  name: string,
  hexDigest = createHash('sha256').update(name).digest('hex'),
): string {
  let slug = name.toLowerCase().replace(/[^a-z0-9]/g, '-');
  if (!/^[a-z]/.test(slug)) {
    slug = `env-${slug}`;
  }
  slug = slug.replace(/-+/g, '-');
  if (slug.length > 24 || slug !== name) {
    slug = slug.slice(0, 17);
    if (!slug.endsWith('-')) slug += '-';
    const hash = BigInt(`0x${hexDigest}`).toString(36);
    return `${slug}${hash.slice(-6)}`;
  }
  return slug.replace(/-$/, '');
}

import { environmentSlug } from './slug';

describe('environmentSlug', () => {
  // The table of GitLab's own spec (spec/lib/gitlab/slug/environment_spec.rb), whose
  // SHA-256 is stubbed to 'a' * 64, giving the suffix 'q517sa'.
  it.each([
    ['staging-12345678901234567', 'staging-123456789-q517sa'],
    ['9-staging-123456789012345', 'env-9-staging-123-q517sa'],
    ['staging-1234567890123456', 'staging-1234567890123456'],
    ['staging-1234567890123456-', 'staging-123456789-q517sa'],
    ['production', 'production'],
    ['PRODUCTION', 'production-q517sa'],
    ['review/1-foo', 'review-1-foo-q517sa'],
    ['1-foo', 'env-1-foo-q517sa'],
    ['1/foo', 'env-1-foo-q517sa'],
  ])('%s -> %s', (name, slug) => {
    expect(environmentSlug(name, 'a'.repeat(64))).toBe(slug);
  });

  it('derives the suffix from the SHA-256 of the name', () => {
    expect(environmentSlug('review/feature-cart')).toMatch(
      /^review-feature-ca-[a-z0-9]{6}$/,
    );
    expect(environmentSlug('review/feature-cart')).not.toBe(
      environmentSlug('review/feature-cat'),
    );
  });
});

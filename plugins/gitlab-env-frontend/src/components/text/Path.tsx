import * as React from 'react';

/**
 * Text that may wrap after its slashes (`acme/platform/search-indexer`,
 * `review/feature-cart`) as well as at its spaces and hyphens, never
 * inside a word.
 */
export function Path({ text }: { text: string }) {
  const parts = text.split('/');
  return (
    <>
      {parts.map((part, index) => (
        // eslint-disable-next-line react/no-array-index-key
        <React.Fragment key={index}>
          {index > 0 ? (
            <>
              /<wbr />
            </>
          ) : null}
          {part}
        </React.Fragment>
      ))}
    </>
  );
}

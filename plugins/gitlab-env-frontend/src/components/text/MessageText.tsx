import * as React from 'react';

/**
 * Message text from the backend, GitLab or the cluster with its
 * `backticked` parts (file names, keys, commands) shown as code, as GitLab
 * and Markdown show them. Everything else stays plain text: no markup is
 * interpreted, so a message cannot inject any.
 */
export function MessageText({ text }: { text: string }) {
  const parts = text.split('`');
  // An odd count of backticks leaves the last one unpaired: shown as typed.
  const paired = parts.length % 2 === 1 ? parts.length : parts.length - 1;
  return (
    <>
      {parts.map((part, index) => {
        if (index >= paired) return `\`${part}`;
        // eslint-disable-next-line react/no-array-index-key
        return index % 2 === 1 ? <code key={index}>{part}</code> : part;
      })}
    </>
  );
}

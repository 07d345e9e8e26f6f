import * as React from 'react';
import Box from '@mui/material/Box';
import { VISUALLY_HIDDEN_SX } from './visuallyHidden';

/** Tails shorter than this take the segment before them too (a pod's `-b2cr4`). */
const SHORT_TAIL = 7;
const MAX_TAIL = 16;

/**
 * Where a Kubernetes name is cut when it does not fit: the end that tells
 * siblings apart (a pod's `-<hash>-<id>`, a ReplicaSet's `-<hash>`, the
 * last words of a name) is kept whole and the ellipsis goes before it.
 */
export function splitForEllipsis(name: string): [head: string, tail: string] {
  const cuts: number[] = [];
  for (let at = name.length - 1; at > 0; at--) {
    if (name[at] === '-' || name[at] === '.') cuts.push(at);
  }
  let cut: number | undefined;
  for (const at of cuts) {
    if (name.length - at > MAX_TAIL) break;
    cut = at;
    if (name.length - at >= SHORT_TAIL) break;
  }
  if (cut === undefined) {
    if (name.length <= 12) return [name, ''];
    cut = name.length - 6;
  }
  return [name.slice(0, cut), name.slice(cut)];
}

/**
 * A name on one line that, when too long, is shortened in the middle
 * (`storefront-w…-5k2kstkls-b2cr4`) so its distinguishing end stays in
 * view. Screen readers and searches get the whole name, in one piece;
 * the two visible parts are for the eye only.
 */
export function MiddleEllipsis({ text }: { text: string }) {
  const [head, tail] = splitForEllipsis(text);
  if (!tail)
    return (
      <Box
        component="span"
        data-middle-ellipsis
        sx={{
          display: 'block',
          overflow: 'hidden',
          textOverflow: 'ellipsis',
          whiteSpace: 'pre',
        }}
      >
        {text}
      </Box>
    );
  return (
    <Box
      component="span"
      data-middle-ellipsis
      sx={{ display: 'flex', minWidth: 0, whiteSpace: 'pre' }}
    >
      <Box component="span" sx={VISUALLY_HIDDEN_SX}>
        {text}
      </Box>
      <Box
        component="span"
        aria-hidden
        data-name-head
        sx={{
          overflow: 'hidden',
          textOverflow: 'ellipsis',
          minWidth: '2ch',
          flexShrink: 1,
        }}
      >
        {head}
      </Box>
      {tail ? (
        <Box component="span" aria-hidden data-name-tail sx={{ flexShrink: 0 }}>
          {tail}
        </Box>
      ) : null}
    </Box>
  );
}

/** The drawer's compact tables (conditions, drifted fields): full width, one line a row. */
export const COMPACT_TABLE_SX = {
  width: '100%',
  borderCollapse: 'collapse',
  typography: 'body2',
  '& th, & td': {
    textAlign: 'left',
    p: 0.5,
    borderBottom: 1,
    borderColor: 'divider',
    verticalAlign: 'top',
  },
} as const;

/**
 * For MUI tables under Backstage's theme, which lets table cells break
 * words anywhere (`word-break: break-word`): words stay whole and wrap
 * between one another (and after the slashes of paths, see Path).
 */
export const WHOLE_WORDS_SX = {
  '& th, & td': { overflowWrap: 'normal', wordBreak: 'normal' },
} as const;

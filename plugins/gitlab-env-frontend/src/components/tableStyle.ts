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

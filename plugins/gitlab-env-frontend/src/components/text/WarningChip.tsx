import * as React from 'react';
import Chip, { ChipProps } from '@mui/material/Chip';

/**
 * A chip in the warning colour whose words stay readable: MUI's orange as
 * text (outlined) or under white text (filled) fails the contrast text
 * needs (WCAG AA, 4.5:1), so the words are dark and the orange is the
 * border's or the fill's.
 */
export const WarningChip = React.forwardRef<HTMLDivElement, ChipProps>(
  function WarningChipView({ sx, variant, ...props }, ref) {
    return (
      <Chip
        ref={ref}
        size="small"
        color="warning"
        variant={variant}
        {...props}
        sx={[
          variant === 'outlined'
            ? { color: 'text.primary', borderWidth: 1.5 }
            : { color: 'common.black' },
          ...(Array.isArray(sx) ? sx : [sx]),
        ]}
      />
    );
  },
);

import * as React from 'react';
import { Link } from '@backstage/core-components';

/** A link where there is an address, the plain text where there is none. */
export function OptionalLink({
  to,
  inText = false,
  children,
}: {
  to?: string;
  /** Within a sentence: underlined, so it stands out without its colour (WCAG 1.4.1). */
  inText?: boolean;
  children: React.ReactNode;
}) {
  if (!to) return <>{children}</>;
  return (
    <Link to={to} underline={inText ? 'always' : undefined}>
      {children}
    </Link>
  );
}

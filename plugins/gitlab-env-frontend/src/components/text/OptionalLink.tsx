import * as React from 'react';
import { Link } from '@backstage/core-components';

/** A link where there is an address, the plain text where there is none. */
export function OptionalLink({
  to,
  children,
}: {
  to?: string;
  children: React.ReactNode;
}) {
  return to ? <Link to={to}>{children}</Link> : <>{children}</>;
}

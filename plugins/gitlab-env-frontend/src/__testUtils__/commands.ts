import { MatcherFunction } from '@testing-library/react';

/**
 * Finds a command shown by CommandBlock, whose arguments are separate
 * elements (so lines break only between them): by its whole text.
 */
export function command(text: string): MatcherFunction {
  return (_content, element) =>
    element?.tagName === 'CODE' && element.textContent === text;
}

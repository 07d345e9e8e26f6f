// The classic JSX transform of this repository's tsconfig needs React in scope.
// eslint-disable-next-line no-restricted-syntax
import * as React from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { OverviewFiltersBar } from './OverviewFiltersBar';

describe('OverviewFiltersBar', () => {
  it('applies the search on Enter, though the form has other fields and no submit button', async () => {
    const onChange = jest.fn();
    render(
      <OverviewFiltersBar
        rows={[]}
        filters={{ text: 'notifications', tiers: ['production'] }}
        onChange={onChange}
      />,
    );
    const search = screen.getByRole('textbox', { name: 'Search' });
    await userEvent.clear(search);
    await userEvent.type(search, 'shop{Enter}');
    expect(onChange).toHaveBeenLastCalledWith({
      text: 'shop',
      tiers: ['production'],
    });
    await userEvent.clear(search);
    await userEvent.type(search, '{Enter}');
    expect(onChange).toHaveBeenLastCalledWith({
      text: undefined,
      tiers: ['production'],
    });
  });
});

// The classic JSX transform of this repository's tsconfig needs React in scope.
// eslint-disable-next-line no-restricted-syntax
import * as React from 'react';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
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

  it('applies the search as the user types, once typing pauses', async () => {
    const onChange = jest.fn();
    render(
      <OverviewFiltersBar
        rows={[]}
        filters={{ tiers: ['production'] }}
        onChange={onChange}
      />,
    );
    await userEvent.type(
      screen.getByRole('textbox', { name: 'Search' }),
      'checkout',
    );
    // One change for the whole word, not one a keystroke.
    await waitFor(() =>
      expect(onChange).toHaveBeenCalledWith({
        text: 'checkout',
        tiers: ['production'],
      }),
    );
    expect(onChange).toHaveBeenCalledTimes(1);
  });

  it('carries what the box holds into a change of another filter', async () => {
    const onChange = jest.fn();
    const { rerender } = render(
      <OverviewFiltersBar rows={[]} filters={{}} onChange={onChange} />,
    );
    const search = screen.getByRole('textbox', { name: 'Search' });
    fireEvent.change(search, { target: { value: 'shop' } });
    // Before the pause ends, the user picks a tier: the search goes with it.
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Tier' }));
    fireEvent.click(await screen.findByRole('option', { name: 'staging' }));
    expect(onChange).toHaveBeenLastCalledWith({
      text: 'shop',
      tiers: ['staging'],
    });
    // A shared link (the address) replaces what the box holds.
    rerender(
      <OverviewFiltersBar
        rows={[]}
        filters={{ text: 'notifications' }}
        onChange={onChange}
      />,
    );
    expect(search).toHaveValue('notifications');
  });
});

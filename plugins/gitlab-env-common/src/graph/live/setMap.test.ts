import { SetMap } from './setMap';

describe('SetMap', () => {
  it('answers like a Map of Sets: values in the order added, no duplicates', () => {
    const map = new SetMap<string, number>();
    expect(map.add('a', 1)).toBe(true);
    expect(map.add('a', 1)).toBe(false);
    expect([...map.values('a')]).toEqual([1]);
    expect(map.add('a', 3)).toBe(true);
    expect(map.add('a', 2)).toBe(true);
    expect(map.add('a', 3)).toBe(false);
    expect([...map.values('a')]).toEqual([1, 3, 2]);
    expect(map.count('a')).toBe(3);
    expect(map.count('b')).toBe(0);
    expect([...map.values('b')]).toEqual([]);
  });

  it('lets go of a key once its last value is deleted, whatever the order', () => {
    const map = new SetMap<string, number>();
    map.add('a', 1);
    map.add('a', 2);
    map.add('a', 3);
    map.delete('a', 1);
    expect([...map.values('a')]).toEqual([2, 3]);
    map.delete('a', 3);
    expect([...map.values('a')]).toEqual([2]);
    map.delete('a', 9);
    expect(map.count('a')).toBe(1);
    map.delete('a', 2);
    expect(map.count('a')).toBe(0);
    // Added again after it emptied: a fresh start.
    map.add('a', 5);
    map.add('a', 4);
    expect([...map.values('a')]).toEqual([5, 4]);
  });
});

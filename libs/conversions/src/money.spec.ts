import { minorDigits, toMinorUnits } from './money';

describe('toMinorUnits', () => {
  it.each([
    ['49.90', 'USD', 4990],
    ['49.9', 'USD', 4990],
    ['0.00', 'EUR', 0],
    ['1200', 'JPY', 1200],
    ['1200.00', 'JPY', 1200],
    ['1.234', 'KWD', 1234],
    [12.5, 'GBP', 1250],
  ])('%s %s → %s', (decimal, currency, minor) => {
    expect(toMinorUnits(decimal, currency)).toBe(minor);
  });

  it.each([['-1.00'], ['1.001'], ['abc'], [''], [null], ['1e3']])('refuses %p', (decimal) => {
    expect(toMinorUnits(decimal, 'USD')).toBeNull();
  });

  it('knows the minor digits of a currency', () => {
    expect([minorDigits('USD'), minorDigits('JPY'), minorDigits('BHD')]).toEqual([2, 0, 3]);
  });
});

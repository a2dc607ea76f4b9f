import { formNumber } from '../../../src/transport/http/dashboard/form-number';

describe('a number typed into a dashboard form (the cost estimator)', () => {
  it.each([
    ['2', 2],
    [' 1.5 ', 1.5],
    ['.5', 0.5],
    ['3.', 3],
    ['1e3', 1000],
    ['-1', -1],
    ['+4', 4],
  ])('reads the decimal %j', (text, value) => {
    expect(formNumber(text)).toBe(value);
  });

  it('reads an empty field as not given', () => {
    expect(formNumber('  ')).toBeUndefined();
  });

  it.each(['0x10', '0b11', '0o7', 'Infinity', '1_000', '1,5', 'two', '1e'])('refuses %j (NaN, which the schema answers "must be a number")', (text) => {
    expect(formNumber(text)).toBeNaN();
  });
});

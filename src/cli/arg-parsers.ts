// How a flag's text becomes its value: the parsers commander calls, each refusing bad input with the flag's name.
import { InvalidArgumentError } from 'commander';

/** A flag's value as a whole number ≥ 1; anything else is a usage error naming the flag. */
export const positiveInt = (name: string) => (value: string) => {
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new InvalidArgumentError(`${name} takes a whole number ≥ 1, got ${JSON.stringify(value)}`);
  return Number(value);
};

/** A flag's value as a whole number ≥ 0. */
export const wholeNumber = (value: string) => {
  if (!/^\d+$/.test(value))
    throw new InvalidArgumentError(`takes a whole number ≥ 0, got ${JSON.stringify(value)}`);
  return Number(value);
};

/** A flag's value as percentage points, 0 to 100; anything else is a usage error naming the flag. */
export const points = (flag: string) => (value: string) => {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 100)
    throw new InvalidArgumentError(`${flag} takes a number from 0 to 100, got ${JSON.stringify(value)}`);
  return n;
};

/** A repeatable, comma-separated flag's values, gathered over every time it is given. */
export const list = (value: string, previous: string[] = []) => [
  ...previous,
  ...value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean),
];

/** A repeatable, comma-separated flag's temperatures (0 to 2), gathered over every time it is given. */
export const numbers = (value: string, previous: number[] = []) =>
  list(value).reduce((all, v) => {
    const n = Number(v);
    if (!Number.isFinite(n) || n < 0 || n > 2)
      throw new InvalidArgumentError(`takes temperatures from 0 to 2, got ${JSON.stringify(v)}`);
    return [...all, n];
  }, previous);

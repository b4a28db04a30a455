import { PyDate } from '../../../../py/pydantic';

/** τ²'s telecom clock (domains/telecom/utils.py get_today). */
export const today = (): PyDate => new PyDate(2025, 2, 25);

// Python parity: date + timedelta(days=n), date.replace(day=…), on the proleptic Gregorian calendar.
export function addDays(d: PyDate, n: number): PyDate {
  const t = new Date(Date.UTC(d.year, d.month - 1, d.day) + n * 86_400_000);
  return new PyDate(t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate());
}
export const withDay = (d: PyDate, day: number): PyDate => new PyDate(d.year, d.month, day);
export const dateKey = (d: PyDate): number => d.year * 10_000 + d.month * 100 + d.day;

/**
 * The date `months` calendar months after `date` (YYYY-MM-DD), the day clamped to the end of a
 * shorter month: 2025-01-31 + 1 month is 2025-02-28. Used for the tenure check
 * (spec: Trigger configuration, employment — "employed that many months").
 */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const day = Math.min(d, lastDay);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** True when someone hired on `hiredOn` has been employed at least `months` months on `today`. */
export function hasTenure(hiredOn: string, months: number, today: string): boolean {
  return addMonths(hiredOn, months) <= today;
}

// The days a schedule view shows and their names: one day, or Monday to Sunday of the day's
// week; the instants they span; a day's heading and a week's title; the practice's opening
// hours on a day.

import { addDays, weekday, zonedInstant, plainDate } from '../ui.js';

/** The days shown (yyyy-MM-dd): `view.day`, or Monday to Sunday of its week. */
export function days(view) {
  if (view.span === 'day') return [view.day];
  const monday = addDays(view.day, 1 - weekday(view.day));
  return [0, 1, 2, 3, 4, 5, 6].map((i) => addDays(monday, i));
}

/** The instants the days shown span: {from, to}, `to` the midnight after the last day. */
export function range(view) {
  const shown = days(view);
  return { from: zonedInstant(shown[0], 0), to: zonedInstant(addDays(shown[shown.length - 1], 1), 0) };
}

/** "23–29 Nov 2026", "30 Nov – 6 Dec 2026", "28 Dec 2026 – 3 Jan 2027". */
export function weekTitle(first, last) {
  const [a, b] = [plainDate(first).split(' '), plainDate(last).split(' ')];
  if (a[2] !== b[2]) return `${a.join(' ')} – ${b.join(' ')}`;
  return a[1] === b[1] ? `${a[0]}–${b.join(' ')}` : `${a[0]} ${a[1]} – ${b.join(' ')}`;
}

/** "Mon 23 Nov" for a yyyy-MM-dd date. */
export function dayHeading(d) {
  const [y, m, dd] = d.split('-').map(Number);
  return new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short' }).format(new Date(Date.UTC(y, m - 1, dd)));
}

/** The practice's opening hours on a day ({weekday, opens, closes}), or undefined when closed. */
export function openingOf(practice, d) { return practice.openingHours.find((o) => o.weekday === weekday(d)); }

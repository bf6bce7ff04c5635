// The analytics screen's headline figures: utilization, VTL compliance, the patients who left
// without being seen, the no-show rate, late cancellations, appointments and (for roles that
// read revenue) revenue, each with the figures it comes from beneath it.

import { h, replace } from '../ui.js';
import { number, percent, hours, money, mainCurrency, minor } from './analytics-format.js';

/** Draws the headline figures of the dashboard `d` into the list `box`; revenue only when
 *  `revenue`. */
export function drawKpis(box, d, revenue) {
  const p = d.practice;
  const kpi = (id, label, value, text, sub) => h('li', { class: 'kpi glass', dataset: { kpi: id } },
    h('span', { class: 'kpi-label' }, label),
    h('span', { class: 'kpi-value', dataset: { value: value === null || value === undefined ? '' : String(value) } }, text),
    sub ? h('p', { class: 'kpi-sub' }, sub) : null);
  const items = [
    kpi('utilization', 'Utilization', p.utilization?.ratio, percent(p.utilization?.ratio),
      `${hours(p.utilization?.bookedMinutes)} booked of ${hours(p.utilization?.availableMinutes)}`),
    kpi('vtl', 'VTL compliance', d.vtl.overall.value, percent(d.vtl.overall.value),
      d.vtl.overall.total ? `${number(d.vtl.overall.count)} of ${number(d.vtl.overall.total)} seen in time · ${number(d.vtl.breachCount)} breaches` : 'no triaged arrivals'),
    kpi('left-without-being-seen', 'Left without being seen', d.vtl.leftWithoutBeingSeen?.value, percent(d.vtl.leftWithoutBeingSeen?.value),
      d.vtl.leftWithoutBeingSeen?.total ? `${number(d.vtl.leftWithoutBeingSeen.count)} of ${number(d.vtl.leftWithoutBeingSeen.total)} triaged arrivals` : 'no triaged arrivals'),
    kpi('no-shows', 'No-show rate', p.noShows.value, percent(p.noShows.value), `${number(p.noShows.count)} of ${number(p.noShows.total)} appointments`),
    kpi('late-cancellations', 'Late cancellations', p.lateCancellations.count, number(p.lateCancellations.count),
      `${percent(p.lateCancellations.value)} of ${number(p.lateCancellations.total)} appointments`),
    kpi('appointments', 'Appointments', p.appointments.total, number(p.appointments.total),
      `${number(p.appointments.completed)} completed · ${number(p.appointments.cancelled)} cancelled`),
  ];
  if (revenue) {
    const currency = mainCurrency(p.revenue);
    const amount = minor(p.revenue, currency);
    items.push(kpi('revenue', 'Revenue', amount, money(amount, currency, { whole: true }),
      p.revenue.length > 1 ? `also ${p.revenue.filter((m) => m.currency !== currency).map((m) => money(m.minorUnits, m.currency)).join(', ')}` : 'fees of completed appointments'));
  }
  replace(box, items);
}

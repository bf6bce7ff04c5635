// The analytics screen's tables beside the charts: VTL compliance per level beside the
// patients who left without being seen, clinical judgement (how often staff raised or lowered
// the computed triage level, per staff member), bottlenecks per specialty and clinician, and
// the forecast for the coming week per specialty.

import { h, replace, notice, plainDate, words, levelWords } from '../ui.js';
import * as catalogue from '../catalogue.js';
import { number, percent, hours, minutesText, cell, table, scrollBox } from './analytics-format.js';

/** A share with the counts it comes from: "12.5% (3 of 24)"; a dash when there is nothing to
 *  count. */
const rate = (r) => (r?.total ? `${percent(r.value)} (${number(r.count)} of ${number(r.total)})` : '—');

function heading(id, title) {
  return h('h2', { id: `${id}-title`, tabindex: '-1' }, title);
}

/** A table's section (`id`, headed `title`), loading until it is drawn. */
export function tableSection(id, title) {
  return h('section', { class: 'panel glass analytics-section', id, 'aria-labelledby': `${id}-title` },
    heading(id, title), h('p', { class: 'muted' }, 'Loading…'));
}

/** Each level over the whole period: compliance beside the patients who left without being
 *  seen, and the waits. */
export function drawVTLLevels(box, vtl) {
  const tolerance = vtl.toleranceSeconds ? ` A patient first seen up to ${number(vtl.toleranceSeconds)} s after the maximum wait counts as in time.` : '';
  const left = vtl.leftWithoutBeingSeen;
  const arrivals = vtl.levels.reduce((sum, l) => sum + (l.arrivals || 0), 0);
  replace(box,
    heading(box.id, 'VTL by level'),
    h('p', { class: 'muted' }, `Over the period: ${percent(vtl.overall.value)} seen within their level’s maximum wait; `
      + `${percent(left?.value)} left without being seen${left?.total ? ` (${number(left.count)} of ${number(left.total)})` : ''}.${tolerance}`),
    scrollBox('VTL compliance and patients who left, per level', table('Per level', ['Level', 'Arrivals', 'Within target', 'Left without being seen', 'Median wait', '90th percentile wait'],
      [...vtl.levels.map((l) => {
        const info = catalogue.levels().find((x) => x.colour === l.level);
        return h('tr', { dataset: { level: l.level } },
          h('th', { scope: 'row' }, info ? levelWords(info.level) : words(l.level)), cell(l.arrivals, number(l.arrivals)),
          cell(l.withinTarget?.value, rate(l.withinTarget)), cell(l.leftWithoutBeingSeen?.value, rate(l.leftWithoutBeingSeen)),
          cell(l.medianWaitMinutes, minutesText(l.medianWaitMinutes)), cell(l.p90WaitMinutes, minutesText(l.p90WaitMinutes)));
      }),
      h('tr', { class: 'row-total', dataset: { level: 'all' } },
        h('th', { scope: 'row' }, 'All levels'), cell(arrivals, number(arrivals)), cell(vtl.overall.value, rate(vtl.overall)),
        cell(left?.value, rate(left)), h('td', { class: 'num' }, ''), h('td', { class: 'num' }, ''))])));
}

/** How often clinical judgement changed the computed level: raised (a quality signal) and
 *  lowered, over the assessments of the period, and per staff member. `o.error`: they could
 *  not be read, which is said here alone. */
export function drawJudgement(box, o) {
  const title = heading(box.id, 'Clinical judgement');
  if (o.error) { replace(box, title, notice(o.error.message)); return; }
  replace(box, title,
    h('p', { class: 'muted' }, `How often the level computed at triage was changed by judgement, over the ${number(o.assessments)} `
      + `${o.assessments === 1 ? 'assessment' : 'assessments'} of ${plainDate(o.from)} – ${plainDate(o.to)}. Raising a level is a safety signal; `
      + 'lowering it is a veterinarian’s decision.'),
    h('ul', { class: 'judgement-figures', 'aria-label': 'Overrides of the computed level' },
      h('li', { dataset: { figure: 'raised', value: o.raised?.value ?? '' } }, h('span', { class: 'kpi-label' }, 'Raised'), ' ', h('strong', {}, rate(o.raised))),
      h('li', { dataset: { figure: 'lowered', value: o.lowered?.value ?? '' } }, h('span', { class: 'kpi-label' }, 'Lowered'), ' ', h('strong', {}, rate(o.lowered)))),
    o.staff.length ? scrollBox('Overrides per staff member', table('Per staff member', ['Staff member', 'Assessments', 'Raised', 'Lowered', 'Raised rate'],
      o.staff.map((person) => h('tr', { dataset: { segment: person.userId } },
        h('th', { scope: 'row' }, person.displayName || 'Former staff member'), cell(person.assessments, number(person.assessments)),
        cell(person.raised, number(person.raised)), cell(person.lowered, number(person.lowered)),
        cell(person.raisedRate?.value, rate(person.raisedRate))))))
      : h('p', { class: 'muted' }, 'No one assessed or overrode a level in this period.'));
}

/** Demand against capacity for the days ahead: per specialty, and each clinician's load. */
export function drawBottlenecks(box, b) {
  const band = { below: 'Below target', within: 'Within target', above: 'Above target' };
  replace(box,
    heading(box.id, 'Bottlenecks'),
    h('p', { class: 'muted' }, `Demand against capacity for the ${b.days} days from ${plainDate(b.firstDay)}; target load ${percent(b.targetLoad.lower)}–${percent(b.targetLoad.upper)}.`),
    scrollBox('Bottlenecks per specialty', table('Per specialty', ['Specialty', 'Booked', 'Requested', 'Capacity', 'Demand ÷ capacity', 'Shortfall', 'Bottleneck'],
      b.specialties.map((s) => h('tr', { class: s.bottleneck ? 'row-flag' : null, dataset: { segment: s.specialty } },
        h('th', { scope: 'row' }, s.name), cell(s.bookedMinutes, hours(s.bookedMinutes)), cell(s.requestedMinutes, hours(s.requestedMinutes)),
        cell(s.capacityMinutes, hours(s.capacityMinutes)), cell(s.ratio, percent(s.ratio)), cell(s.shortfallMinutes, hours(s.shortfallMinutes)),
        h('td', {}, s.bottleneck ? '⚠ Yes' : 'No'))))),
    scrollBox('Load per clinician', table('Per clinician', ['Clinician', 'Booked', 'Bookable', 'Load', 'Band'],
      b.clinicians.map((c) => h('tr', { class: c.band === 'above' ? 'row-flag' : null, dataset: { segment: c.clinician.id } },
        h('th', { scope: 'row' }, c.clinician.name), cell(c.bookedMinutes, hours(c.bookedMinutes)), cell(c.capacityMinutes, hours(c.capacityMinutes)),
        cell(c.load, percent(c.load)), h('td', {}, band[c.band] || c.band))))));
}

/** The coming week's appointments per specialty, with the forecasting rule's back-tested error. */
export function drawForecast(box, f) {
  const mape = (s) => (s.backtest.appointmentsMAPE === undefined ? '—' : `${number(s.backtest.appointmentsMAPE, 1)}%`);
  replace(box,
    heading(box.id, 'Forecast'),
    h('p', { class: 'muted' }, `Appointments for the week from ${plainDate(f.weekStart)}: each day the mean of the same weekday over the last ${f.weeksAveraged} weeks, `
      + `with the rule’s error when replayed on ${plainDate(f.historyFirstDay)} – ${plainDate(f.historyLastDay)}.`),
    scrollBox('Forecast per specialty', table('Per specialty', ['Specialty', 'Forecast', 'Last week', 'Forecast minutes', 'Back-tested error', 'Error (per day)'],
      f.specialties.map((s) => h('tr', { dataset: { segment: s.specialty } },
        h('th', { scope: 'row' }, s.name), cell(s.totalAppointments, number(s.totalAppointments, 1)), cell(s.lastWeekAppointments, number(s.lastWeekAppointments)),
        cell(s.totalMinutes, hours(s.totalMinutes)), cell(s.backtest.appointmentsMAPE, mape(s)),
        cell(s.backtest.appointmentsMAE, s.backtest.appointmentsMAE === undefined ? '—' : `±${number(s.backtest.appointmentsMAE, 1)}`))))));
}

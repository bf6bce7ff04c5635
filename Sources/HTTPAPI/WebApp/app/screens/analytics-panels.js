// The analytics screen's charts in their panels: utilization per clinician, VTL compliance per
// level, appointment volume, no-shows and late cancellations, actual against booked length, and
// (for roles that read revenue) revenue by appointment type and by clinician. A panel holds its
// heading, the chart (drawn again when its width changes), a legend, and the chart's exact
// figures in a table behind "Show data".

import { h, replace, plainDate, words, levelWords } from '../ui.js';
import { barChart, lineChart, legend } from './analytics-charts.js';
import { number, percent, hours, minutesText, currencyDigits, money, mainCurrency, minor, bucketName, cell, table } from './analytics-format.js';

/** The screen's chart panels by name, empty until drawCharts fills them. */
export function chartPanels() {
  return {
    utilization: chartPanel('chart-utilization', 'Utilization per clinician', 'Booked time as a share of each clinician’s working time in the period.'),
    vtl: chartPanel('chart-vtl', 'VTL compliance per level', 'Share of triaged arrivals first seen within their level’s maximum wait, per bucket.'),
    volume: chartPanel('chart-volume', 'Appointment volume', 'Appointments starting in each bucket, and how many were completed.'),
    noShows: chartPanel('chart-noshows', 'No-shows and late cancellations', 'Share of appointments in each bucket that were no-shows or cancelled late.'),
    duration: chartPanel('chart-duration', 'Actual against booked length', 'Mean minutes each appointment type ran over (or under) its booked length.'),
    revenueType: chartPanel('chart-revenue-type', 'Revenue by appointment type', 'Fees of the completed appointments of each type.'),
    revenueClinician: chartPanel('chart-revenue-clinician', 'Revenue by clinician', 'Fees of each clinician’s completed appointments.'),
  };
}

/** Fills the `charts` of chartPanels from the dashboard `d`, each level's compliance series
 *  (`levels` [{level, colour, answer}]) and the no-show counts (`noShowSeries`); the revenue
 *  panels are shown only when `revenue`. */
export function drawCharts(charts, d, levels, noShowSeries, revenue) {
  const labels = d.trend.buckets.map((b) => b.label);
  const bucket = d.trend.bucket;
  const trend = (metric) => d.trend.series.find((s) => s.metric === metric)?.values || labels.map(() => null);

  // Utilization per clinician.
  const clinicians = d.clinicians.map((c) => ({ label: c.segment.name, value: c.utilization?.ratio ?? null, c }));
  charts.utilization.set({
    description: clinicians.length ? `${clinicians.map((i) => `${i.label} ${percent(i.value)}`).join('; ')}. Practice ${percent(d.practice.utilization?.ratio)}.`
      : 'No clinicians in this period.',
    draw: (width, title, description) => barChart({ width, title, description, items: clinicians, format: percent, max: Math.max(1, ...clinicians.map((i) => i.value || 0)) }),
    table: table('Utilization per clinician', ['Clinician', 'Utilization', 'Booked', 'Working time'], clinicians.map(({ c }) => h('tr', { dataset: { segment: c.segment.id } },
      h('th', { scope: 'row' }, c.segment.name), cell(c.utilization?.ratio, percent(c.utilization?.ratio)),
      cell(c.utilization?.bookedMinutes, hours(c.utilization?.bookedMinutes)), cell(c.utilization?.availableMinutes, hours(c.utilization?.availableMinutes))))),
  });

  // VTL compliance per level over time: one line each, told apart by pattern and marker too.
  const levelSeries = levels.map(({ level, colour, answer }, i) => ({
    name: levelWords(level), id: colour, style: i, colour, values: answer.series[0]?.values || [],
  }));
  const overall = d.vtl.levels.map((l) => `${words(l.level)} ${percent(l.withinTarget?.value)} of ${l.arrivals}`).join('; ');
  const vtlLabels = levels[0]?.answer.buckets.map((b) => b.label) || labels;
  charts.vtl.set({
    description: `Over the period: ${overall}. ${vtlLabels.length} ${bucket === 'day' ? 'days' : `${bucket}s`} from ${plainDate(vtlLabels[0])}.`,
    draw: (width, title, description) => lineChart({ width, title, description, labels: vtlLabels, series: levelSeries, format: percent, max: 1,
      axisLabel: (l) => bucketName(l, bucket) }),
    legend: legend(levelSeries),
    table: table('VTL compliance per level', [words(bucket), ...levelSeries.map((s) => s.name)], vtlLabels.map((label, row) => h('tr', { dataset: { bucket: label } },
      h('th', { scope: 'row' }, bucketName(label, bucket)), levelSeries.map((s) => cell(s.values[row], percent(s.values[row])))))),
  });

  // Volume.
  const volumeSeries = [
    { name: 'Appointments', metric: 'appointments', style: 0, colour: 'accent', values: trend('appointments') },
    { name: 'Completed', metric: 'completedAppointments', style: 1, colour: 'second', values: trend('completedAppointments') },
  ];
  charts.volume.set({
    description: `${number(d.practice.appointments.total)} appointments in the period, ${number(d.practice.appointments.completed)} completed; `
      + `busiest ${bucket} ${busiest(labels, volumeSeries[0].values, bucket)}.`,
    draw: (width, title, description) => lineChart({ width, title, description, labels, series: volumeSeries, format: (v) => number(v), axisLabel: (l) => bucketName(l, bucket) }),
    legend: legend(volumeSeries),
    table: table('Appointment volume', [words(bucket), 'Appointments', 'Completed'], labels.map((label, row) => h('tr', { dataset: { bucket: label } },
      h('th', { scope: 'row' }, bucketName(label, bucket)), volumeSeries.map((s) => cell(s.values[row], s.values[row] === null ? '—' : number(s.values[row])))))),
  });

  // No-shows and late cancellations.
  const noShowCounts = noShowSeries.series[0]?.values || labels.map(() => null);
  const attendance = [
    { name: 'No-show rate', metric: 'noShowRate', style: 0, colour: 'accent', values: trend('noShowRate') },
    { name: 'Late-cancellation rate', metric: 'lateCancellationRate', style: 1, colour: 'second', values: trend('lateCancellationRate') },
  ];
  charts.noShows.set({
    description: `No-shows ${percent(d.practice.noShows.value)} (${d.practice.noShows.count} of ${d.practice.noShows.total}); `
      + `late cancellations ${percent(d.practice.lateCancellations.value)} (${d.practice.lateCancellations.count} of ${d.practice.lateCancellations.total}).`,
    draw: (width, title, description) => lineChart({ width, title, description, labels, series: attendance, format: percent,
      max: Math.max(0.05, ...attendance.flatMap((s) => s.values).filter((v) => v !== null)) * 1.1, axisLabel: (l) => bucketName(l, bucket) }),
    legend: legend(attendance),
    table: table('No-shows and late cancellations', [words(bucket), 'No-shows', 'No-show rate', 'Late-cancellation rate'], labels.map((label, row) => h('tr', { dataset: { bucket: label } },
      h('th', { scope: 'row' }, bucketName(label, bucket)), cell(noShowCounts[row], noShowCounts[row] === null ? '—' : number(noShowCounts[row])),
      attendance.map((s) => cell(s.values[row], percent(s.values[row])))))),
  });

  // Durations per appointment type.
  const types = d.appointmentTypes.filter((t) => t.duration.count > 0);
  const model = d.practice.duration;
  charts.duration.set({
    description: types.length ? `${types.map((t) => `${t.segment.name} ${signed(t.duration.meanDifferenceMinutes)}`).join('; ')}.`
      + (model.modelMAE !== undefined ? ` The duration model’s mean error is ${minutesText(model.modelMAE)} over ${model.modelCount} appointments.` : '')
      : 'No completed appointments with a recorded length in this period.',
    draw: (width, title, description) => barChart({ width, title, description, format: (v) => `${number(v, 1)} min`,
      items: types.map((t) => ({ label: t.segment.name, value: Math.max(0, t.duration.meanDifferenceMinutes ?? 0) })) }),
    table: table('Actual against booked length', ['Appointment type', 'Appointments', 'Booked', 'Actual', 'Difference'], types.map((t) => h('tr', { dataset: { segment: t.segment.id } },
      h('th', { scope: 'row' }, t.segment.name), cell(t.duration.count, number(t.duration.count)),
      cell(t.duration.meanPlannedMinutes, minutesText(t.duration.meanPlannedMinutes)), cell(t.duration.meanActualMinutes, minutesText(t.duration.meanActualMinutes)),
      cell(t.duration.meanDifferenceMinutes, signed(t.duration.meanDifferenceMinutes))))),
    note: 'Bars show overruns; a type that ran short shows as 0 with its figure in the table.',
  });

  // Revenue, for roles that read it.
  charts.revenueType.panel.hidden = !revenue;
  charts.revenueClinician.panel.hidden = !revenue;
  if (revenue) {
    const currency = mainCurrency(d.practice.revenue);
    for (const [chart, segments, heading] of [[charts.revenueType, d.appointmentTypes, 'Appointment type'], [charts.revenueClinician, d.clinicians, 'Clinician']]) {
      const items = segments.map((s) => ({ label: s.segment.name, value: minor(s.revenue, currency), s }))
        .sort((a, b) => b.value - a.value);
      const digits = 10 ** currencyDigits(currency);
      chart.set({
        description: `${items.map((i) => `${i.label} ${money(i.value, currency)}`).join('; ')}. Practice ${money(minor(d.practice.revenue, currency), currency)}.`,
        draw: (width, title, description) => barChart({ width, title, description, items: items.map((i) => ({ label: i.label, value: i.value / digits })),
          format: (v) => compactMoney(v, currency) }),
        table: table(chart.title, [heading, `Revenue (${currency})`, 'Completed'], items.map(({ s, value }) => h('tr', { dataset: { segment: s.segment.id } },
          h('th', { scope: 'row' }, s.segment.name), cell(value, money(value, currency)), cell(s.appointments.completed, number(s.appointments.completed))))),
      });
    }
  }
}

/** A chart's panel: heading, the SVG (drawn again when its width changes), a legend, and its
 *  figures in a table behind "Show data". */
function chartPanel(id, title, hint) {
  const heading = h('h3', { id: `${id}-title`, tabindex: '-1' }, title);
  const box = h('div', { class: 'chart-box' });
  const legendBox = h('div', { class: 'chart-legend-box' });
  const noteBox = h('p', { class: 'hint' });
  const tableBox = h('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': `${title}: figures` });
  const details = h('details', { class: 'chart-data' }, h('summary', {}, 'Show data'), tableBox);
  const panel = h('section', { class: 'panel glass chart-panel', id, 'aria-labelledby': heading.id },
    heading, h('p', { class: 'hint' }, hint), box, legendBox, noteBox, details);
  let current = null;
  let drawnWidth = 0;
  const redraw = () => {
    const width = Math.floor(box.clientWidth);
    if (!current || width < 120) return;
    drawnWidth = width;
    replace(box, current.draw(width, title, current.description));
  };
  const observer = new ResizeObserver(() => { if (Math.abs(Math.floor(box.clientWidth) - drawnWidth) >= 4) redraw(); });
  observer.observe(box);
  return {
    panel,
    title,
    set(next) {
      current = next;
      replace(legendBox, next.legend || null);
      noteBox.textContent = next.note || '';
      noteBox.hidden = !next.note;
      replace(tableBox, next.table);
      redraw();
    },
    close() { observer.disconnect(); },
  };
}

function compactMoney(value, currency) {
  try { return value.toLocaleString('en-GB', { style: 'currency', currency, notation: 'compact', maximumFractionDigits: 1 }); } catch { return number(value); }
}

function signed(minutes) {
  if (minutes === null || minutes === undefined) return '—';
  return `${minutes > 0 ? '+' : minutes < 0 ? '−' : ''}${number(Math.abs(minutes), 1)} min`;
}

function busiest(labels, values, bucket) {
  let best = -1;
  values.forEach((v, i) => { if (v !== null && (best < 0 || v > values[best])) best = i; });
  return best < 0 ? 'none' : `${bucketName(labels[best], bucket)} (${number(values[best])})`;
}

// Analytics: the practice's figures for a period of local days — headline figures, charts
// of utilization, VTL compliance, volume, no-shows, durations and (for roles that read
// revenue) revenue, the insights with a way to the chart each comes from, bottlenecks and the
// forecast for the coming days, and the reports as CSV. Every chart has its exact figures in a
// table beside it. VTL compliance stands beside the patients who left without being seen
// (overall and per level), and clinical judgement beside both: how often staff raised or
// lowered the computed triage level. The screen reloads when the live stream says the figures
// changed.

import * as api from '../api.js';
import * as live from '../live.js';
import { h, replace, field, select, notice, showErrors, clearErrors, busy, announce, today, addDays, plainDate, dateTime, words, levelWords } from '../ui.js';
import * as catalogue from '../catalogue.js';
import { barChart, lineChart, legend } from './analytics-charts.js';

const BUCKETS = [['day', 'Day'], ['week', 'Week'], ['month', 'Month']];
const PRESETS = [['7d', 'Last 7 days'], ['30d', 'Last 30 days'], ['quarter', 'This quarter'], ['12m', 'Last 12 months']];
const REPORTS = [['segments', 'Segments'], ['trend', 'Trend'], ['vtl', 'VTL compliance'], ['breaches', 'Breaches'],
  ['bottlenecks', 'Bottlenecks'], ['forecast', 'Forecast'], ['insights', 'Insights']];
const SEVERITY = { critical: ['Critical', '‼'], warning: ['Warning', '!'], info: ['Note', 'i'] };
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const INSIGHTS_SHOWN = 4;

/** The period a preset stands for, ending today in the practice's zone. */
export function presetPeriod(key, now = today()) {
  const [y, m, d] = now.split('-').map(Number);
  const iso = (t) => t.toISOString().slice(0, 10);
  switch (key) {
    case '7d': return { from: addDays(now, -6), to: now, bucket: 'day' };
    case 'quarter': return { from: iso(new Date(Date.UTC(y, Math.floor((m - 1) / 3) * 3, 1))), to: now, bucket: 'week' };
    case '12m': return { from: iso(new Date(Date.UTC(y - 1, m - 1, d + 1))), to: now, bucket: 'month' };
    default: return { from: addDays(now, -29), to: now, bucket: 'day' };
  }
}

// MARK: - Formatting

const number = (value, digits = 0) => Number(value).toLocaleString('en-GB', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const percent = (ratio) => (ratio === null || ratio === undefined ? '—' : `${number(ratio * 100, 1)}%`);
const hours = (minutes) => (minutes === null || minutes === undefined ? '—' : `${number(minutes / 60, 1)} h`);
const minutesText = (minutes) => (minutes === null || minutes === undefined ? '—' : `${number(minutes, 1)} min`);
function currencyDigits(currency) {
  try { return new Intl.NumberFormat('en-GB', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits; } catch { return 2; }
}
function money(minorUnits, currency, { whole = false } = {}) {
  const digits = whole ? 0 : currencyDigits(currency);
  if (whole) minorUnits = Math.round(minorUnits / 10 ** currencyDigits(currency));
  try {
    return (minorUnits / 10 ** digits).toLocaleString('en-GB', { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits });
  } catch { return `${number(minorUnits / 10 ** digits, digits)} ${currency}`; }
}
/** A bucket's label (its first day) as words: 3 Nov, the week of 3 Nov, Nov 2026. */
function bucketName(label, bucket) {
  if (!label) return '';
  const [y, m, d] = label.split('-').map(Number);
  const when = new Date(Date.UTC(y, m - 1, d));
  if (bucket === 'month') return new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', month: 'short', year: 'numeric' }).format(when);
  const short = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short' }).format(when);
  return bucket === 'week' ? `w/c ${short}` : short;
}

/** A table cell holding a figure: the text people read, the exact value in data-value. */
function cell(value, text) {
  return h('td', { class: 'num', dataset: { value: value === null || value === undefined ? '' : String(value) } }, text);
}

function table(caption, headings, rows) {
  return h('table', { class: 'analytics-table' },
    h('caption', {}, caption),
    h('thead', {}, h('tr', {}, headings.map((text, i) => h('th', { scope: 'col', class: i ? 'num' : null }, text)))),
    h('tbody', {}, rows));
}

function scrollBox(label, ...content) {
  return h('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': label }, content);
}

// MARK: - The screen

export function render(container, { session, query }) {
  let alive = true;
  let loadToken = 0;
  let last = null; // the figures last shown
  let insightsOpen = false; // kept open across reloads once opened
  const initial = ISO_DAY.test(query.from || '') && ISO_DAY.test(query.to || '')
    ? { from: query.from, to: query.to, bucket: BUCKETS.some(([b]) => b === query.bucket) ? query.bucket : 'day' }
    : presetPeriod('30d');
  const period = { ...initial };

  // The period: presets, the two days and the bucket.
  const fromInput = h('input', { type: 'date', value: period.from, required: true });
  const toInput = h('input', { type: 'date', value: period.to, required: true });
  const bucketSelect = select(BUCKETS, { value: period.bucket });
  const presets = h('div', { class: 'segmented', role: 'group', 'aria-label': 'Period' },
    PRESETS.map(([key, label]) => h('button', { type: 'button', class: 'button', dataset: { preset: key }, on: { click: () => choose(presetPeriod(key)) } }, label)));
  const form = h('form', { class: 'panel glass analytics-period', novalidate: true, 'aria-label': 'Period and bucket' },
    presets,
    h('div', { class: 'period-fields' },
      field('From', fromInput, { fieldName: 'from' }), field('To', toInput, { fieldName: 'to' }), field('Bucket', bucketSelect, { fieldName: 'bucket' })),
    h('div', { class: 'form-errors', role: 'alert', hidden: true }));
  form.addEventListener('submit', (event) => { event.preventDefault(); fromForm(); });
  for (const control of [fromInput, toInput, bucketSelect]) control.addEventListener('change', fromForm);

  const asOf = h('p', { class: 'as-of muted', 'aria-live': 'off' });
  const message = h('div');
  const kpis = h('ul', { class: 'kpi-grid', 'aria-label': 'Headline figures' }, h('li', { class: 'muted' }, 'Loading…'));
  const insights = h('div', { class: 'insights' }, h('p', { class: 'muted' }, 'Loading…'));
  const charts = {
    utilization: chartPanel('chart-utilization', 'Utilization per clinician', 'Booked time as a share of each clinician’s working time in the period.'),
    vtl: chartPanel('chart-vtl', 'VTL compliance per level', 'Share of triaged arrivals first seen within their level’s maximum wait, per bucket.'),
    volume: chartPanel('chart-volume', 'Appointment volume', 'Appointments starting in each bucket, and how many were completed.'),
    noShows: chartPanel('chart-noshows', 'No-shows and late cancellations', 'Share of appointments in each bucket that were no-shows or cancelled late.'),
    duration: chartPanel('chart-duration', 'Actual against booked length', 'Mean minutes each appointment type ran over (or under) its booked length.'),
    revenueType: chartPanel('chart-revenue-type', 'Revenue by appointment type', 'Fees of the completed appointments of each type.'),
    revenueClinician: chartPanel('chart-revenue-clinician', 'Revenue by clinician', 'Fees of each clinician’s completed appointments.'),
  };
  const vtlLevels = h('section', { class: 'panel glass analytics-section', id: 'analytics-vtl-levels', 'aria-labelledby': 'analytics-vtl-levels-title' },
    h('h2', { id: 'analytics-vtl-levels-title', tabindex: '-1' }, 'VTL by level'), h('p', { class: 'muted' }, 'Loading…'));
  const judgement = h('section', { class: 'panel glass analytics-section', id: 'analytics-judgement', 'aria-labelledby': 'analytics-judgement-title' },
    h('h2', { id: 'analytics-judgement-title', tabindex: '-1' }, 'Clinical judgement'), h('p', { class: 'muted' }, 'Loading…'));
  const bottlenecks = h('section', { class: 'panel glass analytics-section', id: 'analytics-bottlenecks', 'aria-labelledby': 'analytics-bottlenecks-title' },
    h('h2', { id: 'analytics-bottlenecks-title', tabindex: '-1' }, 'Bottlenecks'), h('p', { class: 'muted' }, 'Loading…'));
  const forecast = h('section', { class: 'panel glass analytics-section', id: 'analytics-forecast', 'aria-labelledby': 'analytics-forecast-title' },
    h('h2', { id: 'analytics-forecast-title', tabindex: '-1' }, 'Forecast'), h('p', { class: 'muted' }, 'Loading…'));
  const downloadStatus = h('div', { class: 'download-status', role: 'status' });
  const reports = h('section', { class: 'panel glass analytics-section', id: 'analytics-reports', 'aria-labelledby': 'analytics-reports-title' },
    h('h2', { id: 'analytics-reports-title' }, 'Reports'),
    h('p', { class: 'muted' }, 'Each report as a CSV file for a spreadsheet, for the period shown (bottlenecks and the forecast: the days ahead).'),
    h('div', { class: 'row wrap report-buttons' }, REPORTS.map(([kind, label]) => h('button', {
      type: 'button', class: 'button', dataset: { report: kind }, 'aria-label': `Download the ${label.toLowerCase()} report as CSV`,
      on: { click: (event) => download(kind, event.currentTarget) },
    }, `${label} CSV`))),
    downloadStatus);
  const results = h('div', { class: 'analytics-results' },
    h('section', { 'aria-labelledby': 'analytics-kpis-title' }, h('h2', { id: 'analytics-kpis-title', class: 'visually-hidden' }, 'Headline figures'), kpis),
    h('section', { class: 'panel glass', id: 'analytics-insights', 'aria-labelledby': 'analytics-insights-title' },
      h('h2', { id: 'analytics-insights-title' }, 'Insights'), insights),
    h('section', { 'aria-labelledby': 'analytics-charts-title' }, h('h2', { id: 'analytics-charts-title', class: 'visually-hidden' }, 'Charts'),
      h('div', { class: 'chart-grid' }, Object.values(charts).map((c) => c.panel))),
    h('div', { class: 'analytics-tables' }, vtlLevels, judgement),
    h('div', { class: 'analytics-tables' }, bottlenecks, forecast),
    reports);

  replace(container, h('section', { class: 'screen analytics', 'aria-labelledby': 'analytics-title' },
    h('header', { class: 'screen-header' }, h('h1', { id: 'analytics-title' }, 'Analytics'), asOf),
    form, message, results));

  function choose(next) {
    Object.assign(period, next);
    fromInput.value = period.from;
    toInput.value = period.to;
    bucketSelect.value = period.bucket;
    update(true);
  }

  function fromForm() {
    if (!fromInput.value || !toInput.value) return;
    period.from = fromInput.value;
    period.to = toInput.value;
    period.bucket = bucketSelect.value;
    update(true);
  }

  function update(announceIt = false) {
    history.replaceState(null, '', `#/analytics?${new URLSearchParams(period)}`);
    const now = today();
    presets.querySelectorAll('button').forEach((b) => {
      const p = presetPeriod(b.dataset.preset, now);
      b.setAttribute('aria-pressed', String(p.from === period.from && p.to === period.to));
    });
    load({ announceIt });
  }

  async function load({ announceIt = false } = {}) {
    const token = ++loadToken;
    const q = { from: period.from, to: period.to, bucket: period.bucket };
    results.setAttribute('aria-busy', 'true');
    try {
      // A compliance series for each of the catalogue's levels, asked for by its colour.
      const catalogueLevels = catalogue.levels();
      const [dashboard, noShows, overrides, ...compliance] = await Promise.all([
        api.get('/analytics/dashboard', q),
        api.get('/analytics/metrics/noShows', q),
        // Clinical judgement on its own: the other figures stand without it.
        api.get('/analytics/triage-overrides', { from: period.from, to: period.to }).catch((error) => ({ error })),
        ...catalogueLevels.map(({ colour }) => api.get('/analytics/metrics/vtlCompliance', { ...q, level: colour })),
      ]);
      const levels = catalogueLevels.map((l, i) => ({ ...l, answer: compliance[i] }));
      if (!alive || token !== loadToken) return;
      clearErrors(form);
      replace(message);
      draw(dashboard, levels, noShows);
      drawJudgement(overrides);
      if (announceIt) announce(`Figures for ${plainDate(period.from)} to ${plainDate(period.to)}`);
    } catch (error) {
      if (!alive || token !== loadToken) return;
      if (error.status === 422 && error.errors.length) {
        showErrors(form, error.errors);
        replace(message);
      } else replace(message, notice(last ? `${error.message} The figures shown are from ${dateTime(last.asOf)}.` : error.message));
    } finally {
      if (token === loadToken) results.removeAttribute('aria-busy');
    }
  }

  // MARK: drawing

  function draw(d, levels, noShowSeries) {
    last = d;
    const revenue = d.revenueIncluded === true && session.can('readRevenue');
    Object.assign(asOf.dataset, { asOf: d.asOf, from: d.from, to: d.to });
    asOf.textContent = `${plainDate(d.from)} – ${plainDate(d.to)} · figures as of ${dateTime(d.asOf)}`;
    drawKpis(d, revenue);
    drawInsights(d.insights || [], revenue);
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

    drawVTLLevels(d.vtl);
    drawBottlenecks(d.bottlenecks);
    drawForecast(d.forecast);
  }

  function drawKpis(d, revenue) {
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
    replace(kpis, items);
  }

  function drawInsights(list, revenue) {
    if (!list.length) { replace(insights, h('p', { class: 'muted' }, 'Nothing stands out in this period.')); return; }
    const items = list.map((insight) => {
      const target = insightTarget(insight.source, revenue);
      const [severity, mark] = SEVERITY[insight.severity] || SEVERITY.info;
      const where = target && document.getElementById(target);
      const title = where?.querySelector('h2, h3')?.textContent;
      return h('li', { class: ['insight', `insight-${insight.severity}`], dataset: { kind: insight.kind, metric: insight.source.metric } },
        h('span', { class: ['chip', `severity-${insight.severity}`] }, h('span', { 'aria-hidden': 'true' }, `${mark} `), severity),
        h('p', { class: 'insight-message' }, insight.message),
        target && title ? h('button', { type: 'button', class: 'button quiet insight-link', dataset: { target }, on: { click: () => reveal(target) } },
          `${target.startsWith('chart') ? 'Show the chart' : 'Show the table'}: ${title}`) : null);
    });
    // The most severe first (as the API ranks them); the rest one tap away.
    const more = items.slice(INSIGHTS_SHOWN);
    replace(insights, h('ol', { class: 'insight-list' }, items.slice(0, INSIGHTS_SHOWN)),
      more.length ? h('details', { class: 'more-insights', open: insightsOpen }, h('summary', {}, `${more.length} more ${more.length === 1 ? 'insight' : 'insights'}`),
        h('ol', { class: 'insight-list', start: INSIGHTS_SHOWN + 1 }, more)) : null);
    insights.querySelector('details')?.addEventListener('toggle', (event) => { insightsOpen = event.currentTarget.open; });
  }

  /** Each level over the whole period: compliance beside the patients who left without being
   *  seen, and the waits. */
  function drawVTLLevels(vtl) {
    const rate = (r) => (r?.total ? `${percent(r.value)} (${number(r.count)} of ${number(r.total)})` : '—');
    const tolerance = vtl.toleranceSeconds ? ` A patient first seen up to ${number(vtl.toleranceSeconds)} s after the maximum wait counts as in time.` : '';
    const left = vtl.leftWithoutBeingSeen;
    const arrivals = vtl.levels.reduce((sum, l) => sum + (l.arrivals || 0), 0);
    replace(vtlLevels,
      h('h2', { id: 'analytics-vtl-levels-title', tabindex: '-1' }, 'VTL by level'),
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
   *  lowered, over the assessments of the period, and per staff member. */
  function drawJudgement(o) {
    const heading = h('h2', { id: 'analytics-judgement-title', tabindex: '-1' }, 'Clinical judgement');
    if (o.error) { replace(judgement, heading, notice(o.error.message)); return; }
    const rate = (r) => (r?.total ? `${percent(r.value)} (${number(r.count)} of ${number(r.total)})` : '—');
    replace(judgement, heading,
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

  function drawBottlenecks(b) {
    const band = { below: 'Below target', within: 'Within target', above: 'Above target' };
    replace(bottlenecks,
      h('h2', { id: 'analytics-bottlenecks-title', tabindex: '-1' }, 'Bottlenecks'),
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

  function drawForecast(f) {
    const mape = (s) => (s.backtest.appointmentsMAPE === undefined ? '—' : `${number(s.backtest.appointmentsMAPE, 1)}%`);
    replace(forecast,
      h('h2', { id: 'analytics-forecast-title', tabindex: '-1' }, 'Forecast'),
      h('p', { class: 'muted' }, `Appointments for the week from ${plainDate(f.weekStart)}: each day the mean of the same weekday over the last ${f.weeksAveraged} weeks, `
        + `with the rule’s error when replayed on ${plainDate(f.historyFirstDay)} – ${plainDate(f.historyLastDay)}.`),
      scrollBox('Forecast per specialty', table('Per specialty', ['Specialty', 'Forecast', 'Last week', 'Forecast minutes', 'Back-tested error', 'Error (per day)'],
        f.specialties.map((s) => h('tr', { dataset: { segment: s.specialty } },
          h('th', { scope: 'row' }, s.name), cell(s.totalAppointments, number(s.totalAppointments, 1)), cell(s.lastWeekAppointments, number(s.lastWeekAppointments)),
          cell(s.totalMinutes, hours(s.totalMinutes)), cell(s.backtest.appointmentsMAPE, mape(s)),
          cell(s.backtest.appointmentsMAE, s.backtest.appointmentsMAE === undefined ? '—' : `±${number(s.backtest.appointmentsMAE, 1)}`))))));
  }

  /** Scrolls to a chart or table and moves the focus to its heading. */
  function reveal(id) {
    const target = document.getElementById(id);
    if (!target) return;
    target.scrollIntoView({ block: 'start', behavior: window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth' });
    target.querySelector('h2, h3')?.focus({ preventScroll: true });
    target.classList.add('is-target');
    setTimeout(() => target.classList.remove('is-target'), 2000);
  }

  // MARK: downloads

  async function download(kind, button) {
    await busy(button, async () => {
      try {
        const { data, headers } = await api.request('GET', `/analytics/reports/${kind}`, {
          query: { from: period.from, to: period.to, bucket: period.bucket, format: 'csv' }, accept: 'text/csv', blob: true });
        const name = /filename="?([^";]+)"?/.exec(headers.get('Content-Disposition') || '')?.[1] || `vetnet-${kind}-${period.from}-${period.to}.csv`;
        const blob = data instanceof Blob ? data : new Blob([data], { type: 'text/csv' });
        const url = URL.createObjectURL(blob);
        const link = h('a', { href: url, download: name, class: 'visually-hidden', tabindex: '-1' }, name);
        document.body.append(link);
        link.click();
        link.remove();
        setTimeout(() => URL.revokeObjectURL(url), 60000);
        replace(downloadStatus, h('p', { class: 'notice notice-success' }, `Downloaded ${name}.`));
      } catch (error) {
        replace(downloadStatus, notice(error.message));
      }
    }, 'Preparing…');
  }

  const unsubscribe = live.subscribe(['metrics.*'], () => load());
  update();
  return () => {
    alive = false;
    unsubscribe();
    Object.values(charts).forEach((c) => c.close());
  };
}

// MARK: - Parts

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

function insightTarget(source, revenue) {
  const specialty = source.segment?.dimension === 'specialty';
  switch (source.metric) {
    case 'vtlCompliance': case 'vtlBreaches': case 'medianWait': case 'p90Wait': case 'triageArrivals': return 'chart-vtl';
    case 'utilization': case 'roomUtilization': return 'chart-utilization';
    case 'noShows': case 'noShowRate': case 'lateCancellationRate': case 'cancellations': return 'chart-noshows';
    case 'meanDurationDifference': case 'durationModelError': return 'chart-duration';
    case 'bookedMinutes': return specialty ? 'analytics-bottlenecks' : 'chart-utilization';
    case 'appointments': return specialty ? 'analytics-forecast' : 'chart-volume';
    case 'completedAppointments': case 'newPatients': case 'returningPatients': return 'chart-volume';
    case 'revenue': return revenue ? 'chart-revenue-type' : null;
    default: return null;
  }
}

function mainCurrency(amounts = []) {
  return [...amounts].sort((a, b) => b.minorUnits - a.minorUnits)[0]?.currency || 'GBP';
}

function minor(amounts = [], currency) {
  return (amounts || []).find((m) => m.currency === currency)?.minorUnits ?? 0;
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

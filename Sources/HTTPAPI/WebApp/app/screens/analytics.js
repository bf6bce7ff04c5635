// Analytics: the practice's figures for a period of local days — headline figures, charts
// of utilization, VTL compliance, volume, no-shows, durations and (for roles that read
// revenue) revenue, the insights with a way to the chart each comes from, bottlenecks and the
// forecast for the coming days, and the reports as CSV. Every chart has its exact figures in a
// table beside it. VTL compliance stands beside the patients who left without being seen
// (overall and per level), and clinical judgement beside both: how often staff raised or
// lowered the computed triage level. The screen reloads when the live stream says the figures
// changed.
//
// This screen loads the figures for the period and puts the parts together: the period's form
// (analytics-period.js), the headline figures (analytics-kpis.js), the insights
// (analytics-insights.js), the chart panels (analytics-panels.js) with their SVG charts
// (analytics-charts.js), the tables of VTL by level, clinical judgement, bottlenecks and the
// forecast (analytics-tables.js), and the CSV reports (analytics-reports.js); the figures are
// written as analytics-format.js writes them.

import * as api from '../api.js';
import * as live from '../live.js';
import { h, replace, notice, showErrors, clearErrors, announce, plainDate, dateTime } from '../ui.js';
import * as catalogue from '../catalogue.js';
import { periodForm } from './analytics-period.js';
import { drawKpis } from './analytics-kpis.js';
import { insightList } from './analytics-insights.js';
import { chartPanels, drawCharts } from './analytics-panels.js';
import { tableSection, drawVTLLevels, drawJudgement, drawBottlenecks, drawForecast } from './analytics-tables.js';
import { reportsSection } from './analytics-reports.js';

export { presetPeriod } from './analytics-period.js';

export function render(container, { session, query }) {
  let alive = true;
  let loadToken = 0;
  let last = null; // the figures last shown

  // The period: presets, the two days and the bucket.
  const { form, period, markPresets } = periodForm(query, () => update(true));

  const asOf = h('p', { class: 'as-of muted', 'aria-live': 'off' });
  const message = h('div');
  const kpis = h('ul', { class: 'kpi-grid', 'aria-label': 'Headline figures' }, h('li', { class: 'muted' }, 'Loading…'));
  const insights = insightList();
  const charts = chartPanels();
  const vtlLevels = tableSection('analytics-vtl-levels', 'VTL by level');
  const judgement = tableSection('analytics-judgement', 'Clinical judgement');
  const bottlenecks = tableSection('analytics-bottlenecks', 'Bottlenecks');
  const forecast = tableSection('analytics-forecast', 'Forecast');
  const results = h('div', { class: 'analytics-results' },
    h('section', { 'aria-labelledby': 'analytics-kpis-title' }, h('h2', { id: 'analytics-kpis-title', class: 'visually-hidden' }, 'Headline figures'), kpis),
    h('section', { class: 'panel glass', id: 'analytics-insights', 'aria-labelledby': 'analytics-insights-title' },
      h('h2', { id: 'analytics-insights-title' }, 'Insights'), insights.element),
    h('section', { 'aria-labelledby': 'analytics-charts-title' }, h('h2', { id: 'analytics-charts-title', class: 'visually-hidden' }, 'Charts'),
      h('div', { class: 'chart-grid' }, Object.values(charts).map((c) => c.panel))),
    h('div', { class: 'analytics-tables' }, vtlLevels, judgement),
    h('div', { class: 'analytics-tables' }, bottlenecks, forecast),
    reportsSection(period));

  replace(container, h('section', { class: 'screen analytics', 'aria-labelledby': 'analytics-title' },
    h('header', { class: 'screen-header' }, h('h1', { id: 'analytics-title' }, 'Analytics'), asOf),
    form, message, results));

  /** After a change of period: the address, the pressed preset, then the figures. */
  function update(announceIt = false) {
    history.replaceState(null, '', `#/analytics?${new URLSearchParams(period)}`);
    markPresets();
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
      drawJudgement(judgement, overrides);
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

  function draw(d, levels, noShowSeries) {
    last = d;
    const revenue = d.revenueIncluded === true && session.can('readRevenue');
    Object.assign(asOf.dataset, { asOf: d.asOf, from: d.from, to: d.to });
    asOf.textContent = `${plainDate(d.from)} – ${plainDate(d.to)} · figures as of ${dateTime(d.asOf)}`;
    drawKpis(kpis, d, revenue);
    insights.draw(d.insights || [], revenue);
    drawCharts(charts, d, levels, noShowSeries, revenue);
    drawVTLLevels(vtlLevels, d.vtl);
    drawBottlenecks(bottlenecks, d.bottlenecks);
    drawForecast(forecast, d.forecast);
  }

  const unsubscribe = live.subscribe(['metrics.*'], () => load());
  update();
  return () => {
    alive = false;
    unsubscribe();
    Object.values(charts).forEach((c) => c.close());
  };
}

// The analytics screen's reports: a button per report that downloads it as a CSV file for the
// period shown (bottlenecks and the forecast: the days ahead), named as the server names it,
// with a word on the download or on why it failed.

import * as api from '../api.js';
import { h, replace } from '../ui.js';
import { act } from '../forms.js';

const REPORTS = [['segments', 'Segments'], ['trend', 'Trend'], ['vtl', 'VTL compliance'], ['breaches', 'Breaches'],
  ['bottlenecks', 'Bottlenecks'], ['forecast', 'Forecast'], ['insights', 'Insights']];

/** The reports' section; `period` {from, to, bucket}: the period shown, read at each download. */
export function reportsSection(period) {
  const status = h('div', { class: 'download-status', role: 'status' });

  function download(kind, button) {
    return act(button, async () => {
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
      replace(status, h('p', { class: 'notice notice-success' }, `Downloaded ${name}.`));
    }, { label: 'Preparing…', into: status });
  }

  return h('section', { class: 'panel glass analytics-section', id: 'analytics-reports', 'aria-labelledby': 'analytics-reports-title' },
    h('h2', { id: 'analytics-reports-title' }, 'Reports'),
    h('p', { class: 'muted' }, 'Each report as a CSV file for a spreadsheet, for the period shown (bottlenecks and the forecast: the days ahead).'),
    h('div', { class: 'row wrap report-buttons' }, REPORTS.map(([kind, label]) => h('button', {
      type: 'button', class: 'button', dataset: { report: kind }, 'aria-label': `Download the ${label.toLowerCase()} report as CSV`,
      on: { click: (event) => download(kind, event.currentTarget) },
    }, `${label} CSV`))),
    status);
}

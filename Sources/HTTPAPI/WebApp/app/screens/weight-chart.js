// The weight chart of a record: an inline SVG line over time (no library), with a text
// summary for screen readers and the figures as a table for anyone who wants them.

import { h, date } from '../ui.js';
import { niceTicks } from '../chart-scale.js';

const WIDTH = 640;
const HEIGHT = 240;
const PAD = { left: 52, right: 16, top: 16, bottom: 36 };

/** A chart of `weights` ({grams, measuredAt}, oldest first) titled `label`. */
export function weightChart(weights, label) {
  const points = weights.map((w) => ({ t: Date.parse(w.measuredAt), kg: w.grams / 1000, at: w.measuredAt }));
  const kgs = points.map((p) => p.kg);
  let low = Math.min(...kgs);
  let high = Math.max(...kgs);
  const spread = Math.max(high - low, high * 0.1, 0.1);
  low = Math.max(0, low - spread * 0.25);
  high += spread * 0.25;
  const t0 = points[0].t;
  const t1 = points.length > 1 ? points[points.length - 1].t : t0 + 86400000;
  const x = (t) => PAD.left + ((t - t0) / Math.max(t1 - t0, 1)) * (WIDTH - PAD.left - PAD.right);
  const y = (kg) => PAD.top + (1 - (kg - low) / (high - low)) * (HEIGHT - PAD.top - PAD.bottom);
  const ticks = niceTicks(low, high, 4);
  const format = (kg) => kg.toLocaleString('en-GB', { maximumFractionDigits: high - low < 2 ? 2 : 1 });
  const first = points[0];
  const last = points[points.length - 1];
  const summary = points.length === 1
    ? `One weight: ${format(first.kg)} kg on ${date(first.at)}.`
    : `${points.length} weights from ${format(first.kg)} kg on ${date(first.at)} to ${format(last.kg)} kg on ${date(last.at)}; lowest ${format(Math.min(...kgs))} kg, highest ${format(Math.max(...kgs))} kg.`;
  const titleId = `chart-title-${first.t}`;
  const descId = `chart-desc-${first.t}`;

  const svg = h('svg:svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: 'weight-chart', role: 'img', 'aria-labelledby': `${titleId} ${descId}`, preserveAspectRatio: 'xMidYMid meet' },
    h('svg:title', { id: titleId }, label),
    h('svg:desc', { id: descId }, summary),
    ticks.map((kg) => [
      h('svg:line', { x1: PAD.left, x2: WIDTH - PAD.right, y1: y(kg), y2: y(kg), class: 'grid-line' }),
      h('svg:text', { x: PAD.left - 8, y: y(kg) + 4, class: 'axis-label', 'text-anchor': 'end' }, `${format(kg)}`),
    ]),
    h('svg:text', { x: PAD.left - 8, y: PAD.top - 4, class: 'axis-label', 'text-anchor': 'end' }, 'kg'),
    h('svg:text', { x: PAD.left, y: HEIGHT - 10, class: 'axis-label' }, date(first.at)),
    points.length > 1 ? h('svg:text', { x: WIDTH - PAD.right, y: HEIGHT - 10, class: 'axis-label', 'text-anchor': 'end' }, date(last.at)) : null,
    points.length > 1 ? h('svg:polyline', { points: points.map((p) => `${x(p.t).toFixed(1)},${y(p.kg).toFixed(1)}`).join(' '), class: 'weight-line' }) : null,
    points.map((p) => h('svg:circle', { cx: x(p.t).toFixed(1), cy: y(p.kg).toFixed(1), r: 5, class: 'weight-point' },
      h('svg:title', {}, `${format(p.kg)} kg, ${date(p.at)}`))));

  return h('figure', { class: 'chart' }, svg,
    h('details', {}, h('summary', {}, 'Weights as a table'),
      h('table', {}, h('caption', { class: 'visually-hidden' }, label),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Date'), h('th', { scope: 'col' }, 'Weight (kg)'))),
        h('tbody', {}, [...points].reverse().map((p) => h('tr', {}, h('td', {}, date(p.at)), h('td', {}, format(p.kg))))))));
}


// The analytics screen's charts: inline SVG drawn here (no library) at the width they are
// given, so their text stays legible from a phone to a desktop. Every chart carries a title
// and a description for screen readers; the screen puts the exact figures in a table beside it.
// Series are told apart by colour and by line pattern and marker shape, never colour alone.

import { h } from '../ui.js';
import { niceMax, niceTicks } from '../chart-scale.js';

const ROW = 30; // height of a bar's row
const LABEL_CHARS = 24; // the longest category label shown before it is shortened

/** Horizontal bars, one per category: `items` [{label, value}] (value null: nothing to
 *  measure), `format(value)` for the figures, `max` the scale's end (default: the largest). */
export function barChart({ width, title, description, items, format, max }) {
  const longest = Math.min(LABEL_CHARS, Math.max(4, ...items.map((i) => i.label.length)));
  const labelWidth = Math.min(Math.round(width * 0.42), longest * 7.5 + 12);
  const valueWidth = 64;
  const pad = { top: 8, bottom: 28 };
  const height = pad.top + pad.bottom + Math.max(1, items.length) * ROW;
  const values = items.map((i) => i.value).filter((v) => v !== null && v !== undefined);
  const top = max ?? niceMax(Math.max(0, ...values));
  const x0 = labelWidth;
  const span = Math.max(10, width - labelWidth - valueWidth);
  const x = (v) => x0 + (top > 0 ? (Math.max(0, v) / top) * span : 0);
  const ticks = top > 0 ? niceTicks(0, top, Math.max(2, Math.min(5, Math.floor(span / 70)))) : [0];
  return svgFrame({ width, height, title, description, className: 'analytics-chart bar-chart' },
    ticks.map((t) => [
      h('svg:line', { x1: x(t), x2: x(t), y1: pad.top, y2: height - pad.bottom, class: 'grid-line' }),
      h('svg:text', { x: x(t), y: height - 8, class: 'axis-label', 'text-anchor': 'middle' }, format(t)),
    ]),
    items.map((item, i) => {
      const y = pad.top + i * ROW;
      const missing = item.value === null || item.value === undefined;
      return h('svg:g', { class: 'bar-row' },
        h('svg:text', { x: labelWidth - 8, y: y + ROW / 2 + 5, class: 'bar-label', 'text-anchor': 'end' }, shorten(item.label, longest)),
        missing ? null : h('svg:rect', { x: x0, y: y + 5, width: Math.max(1, x(item.value) - x0).toFixed(1), height: ROW - 10, rx: 3, class: 'bar' },
          h('svg:title', {}, `${item.label}: ${format(item.value)}`)),
        h('svg:text', { x: (missing ? x0 : x(item.value)) + 6, y: y + ROW / 2 + 5, class: 'bar-value' }, missing ? 'no data' : format(item.value)));
    }));
}

/** Lines over the buckets of a period: `labels` one per bucket, `series` [{name, values,
 *  style, colour}] where `style` (0–4) picks the dash pattern and marker and `colour` the colour
 *  (a level's, `accent` or `second`); `format(value)` for
 *  the axis; `max` the scale's end (default: from the data). A null value breaks the line. */
export function lineChart({ width, title, description, labels, series, format, max, axisLabel = (l) => l }) {
  const height = Math.max(200, Math.min(280, Math.round(width * 0.45)));
  const pad = { left: 56, right: 16, top: 14, bottom: 34 };
  const values = series.flatMap((s) => s.values).filter((v) => v !== null && v !== undefined);
  const top = max ?? niceMax(Math.max(0, ...values));
  const plotWidth = width - pad.left - pad.right;
  const x = (i) => pad.left + (labels.length > 1 ? (i / (labels.length - 1)) * plotWidth : plotWidth / 2);
  const y = (v) => pad.top + (1 - (top > 0 ? v / top : 0)) * (height - pad.top - pad.bottom);
  const ticks = niceTicks(0, top > 0 ? top : 1, 4);
  const every = Math.max(1, Math.ceil(labels.length / Math.max(2, Math.floor(plotWidth / 90))));
  const markers = labels.length <= 62;
  return svgFrame({ width, height, title, description, className: 'analytics-chart line-chart' },
    ticks.map((t) => [
      h('svg:line', { x1: pad.left, x2: width - pad.right, y1: y(t), y2: y(t), class: 'grid-line' }),
      h('svg:text', { x: pad.left - 8, y: y(t) + 4, class: 'axis-label', 'text-anchor': 'end' }, format(t)),
    ]),
    labels.map((label, i) => (i % every === 0 || i === labels.length - 1) && (i === labels.length - 1 || labels.length - 1 - i >= every / 2)
      ? h('svg:text', { x: x(i), y: height - 10, class: 'axis-label', 'text-anchor': labels.length === 1 ? 'middle' : i === 0 ? 'start' : i === labels.length - 1 ? 'end' : 'middle' }, axisLabel(label))
      : null),
    series.map((s) => {
      const runs = [];
      let run = [];
      s.values.forEach((v, i) => {
        if (v === null || v === undefined) { if (run.length) runs.push(run); run = []; } else run.push([x(i), y(v)]);
      });
      if (run.length) runs.push(run);
      return h('svg:g', { class: `series series-${s.style} colour-${s.colour || 'accent'}` },
        runs.map((points) => points.length > 1
          ? h('svg:polyline', { points: points.map(([px, py]) => `${px.toFixed(1)},${py.toFixed(1)}`).join(' '), class: 'series-line' }) : null),
        (markers || runs.some((r) => r.length === 1)) ? s.values.map((v, i) => (v === null || v === undefined ? null
          : marker(s.style, x(i), y(v), `${s.name}, ${labels[i]}: ${format(v)}`))) : null);
    }));
}

/** A legend for `series` of a line chart: each name beside its line pattern and marker. */
export function legend(series) {
  return h('ul', { class: 'legend chart-legend' }, series.map((s) => h('li', {},
    h('svg:svg', { class: `legend-sample series series-${s.style} colour-${s.colour || 'accent'}`, viewBox: '0 0 36 16', width: 36, height: 16, 'aria-hidden': 'true', focusable: 'false' },
      h('svg:line', { x1: 2, x2: 34, y1: 8, y2: 8, class: 'series-line' }), marker(s.style, 18, 8)),
    s.name)));
}

function svgFrame({ width, height, title, description, className }, ...content) {
  const id = `svg-${Math.random().toString(36).slice(2, 10)}`;
  return h('svg:svg', {
    viewBox: `0 0 ${width} ${height}`, width, height, class: className, role: 'img',
    'aria-labelledby': `${id}-title ${id}-desc`, focusable: 'false',
  }, h('svg:title', { id: `${id}-title` }, title), h('svg:desc', { id: `${id}-desc` }, description), content);
}

/** A marker of one of five shapes: circle, square, triangle, diamond, cross. */
function marker(style, cx, cy, label) {
  const r = 4.5;
  const tip = label ? h('svg:title', {}, label) : null;
  const cls = 'series-marker';
  switch (style % 5) {
    case 1: return h('svg:rect', { x: (cx - r).toFixed(1), y: (cy - r).toFixed(1), width: r * 2, height: r * 2, class: cls }, tip);
    case 2: return h('svg:path', { d: `M${cx.toFixed(1)} ${(cy - r - 1).toFixed(1)} l${r + 1} ${r * 2} h${-(r + 1) * 2} z`, class: cls }, tip);
    case 3: return h('svg:path', { d: `M${cx.toFixed(1)} ${(cy - r - 1).toFixed(1)} l${r + 1} ${r + 1} l${-(r + 1)} ${r + 1} l${-(r + 1)} ${-(r + 1)} z`, class: cls }, tip);
    case 4: return h('svg:path', { d: `M${(cx - r).toFixed(1)} ${(cy - r).toFixed(1)} l${r * 2} ${r * 2} m0 ${-r * 2} l${-r * 2} ${r * 2}`, class: `${cls} cross` }, tip);
    default: return h('svg:circle', { cx: cx.toFixed(1), cy: cy.toFixed(1), r, class: cls }, tip);
  }
}

function shorten(text, chars) { return text.length > chars ? `${text.slice(0, chars - 1)}…` : text; }


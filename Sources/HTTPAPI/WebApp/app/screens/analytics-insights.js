// The analytics screen's insights: what stands out in the period, the most severe first (as the
// API ranks them) and the rest one tap away, each with a way to the chart or table it comes
// from, which is scrolled to, focused and marked for a moment.

import { h, replace } from '../ui.js';

const SEVERITY = { critical: ['Critical', '‼'], warning: ['Warning', '!'], info: ['Note', 'i'] };
const INSIGHTS_SHOWN = 4;

/** The insights' box. Returns {element, draw(list, revenue)}: `draw` shows the dashboard's
 *  insights, leading to the revenue chart only when `revenue`. The rest, once opened, stay
 *  open across reloads. */
export function insightList() {
  let open = false;
  const element = h('div', { class: 'insights' }, h('p', { class: 'muted' }, 'Loading…'));

  function draw(list, revenue) {
    if (!list.length) { replace(element, h('p', { class: 'muted' }, 'Nothing stands out in this period.')); return; }
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
    replace(element, h('ol', { class: 'insight-list' }, items.slice(0, INSIGHTS_SHOWN)),
      more.length ? h('details', { class: 'more-insights', open }, h('summary', {}, `${more.length} more ${more.length === 1 ? 'insight' : 'insights'}`),
        h('ol', { class: 'insight-list', start: INSIGHTS_SHOWN + 1 }, more)) : null);
    element.querySelector('details')?.addEventListener('toggle', (event) => { open = event.currentTarget.open; });
  }

  return { element, draw };
}

/** The id of the chart or table an insight comes from; null when none is shown. */
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

/** Scrolls to a chart or table and moves the focus to its heading. */
function reveal(id) {
  const target = document.getElementById(id);
  if (!target) return;
  target.scrollIntoView({ block: 'start', behavior: window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth' });
  target.querySelector('h2, h3')?.focus({ preventScroll: true });
  target.classList.add('is-target');
  setTimeout(() => target.classList.remove('is-target'), 2000);
}

// Triage without the engine: when the server cannot be reached the intake shows the VTL
// reference (the levels with their maximum waits, and the findings by ABCDE letter with the
// level each one sets, from the catalogue kept on the device) and staff give the level by
// hand. The case is queued as it would have been sent; once sent, the engine's level is shown
// beside the hand-given one (offline/outbox.js).

import * as catalogue from '../catalogue.js';
import { h, replace, levelBadge, levelLabel, uid } from '../ui.js';

/** The reference and the choice of level: {element, show(), hide(), active(), level()}. */
export function manualTriage() {
  const titleId = uid('manual-title');
  const legendId = uid('manual-legend');
  const body = h('div', {});
  const element = h('section', { class: 'manual-triage panel glass', 'aria-labelledby': titleId, hidden: true },
    h('h2', { id: titleId }, 'Offline: give the level by hand'), body);
  let drawn = false;

  function draw() {
    const levels = catalogue.levels();
    if (!levels.length) {
      replace(body, h('p', { class: 'notice notice-warning' }, 'The VTL reference is not on this device: the case cannot be triaged without VetNet.'));
      return;
    }
    const radios = h('fieldset', { class: 'manual-levels', 'aria-labelledby': legendId },
      h('legend', { id: legendId }, 'Level given by hand'),
      levels.map((l) => h('label', {}, h('input', { type: 'radio', name: 'manualLevel', value: String(l.level), dataset: { field: 'manualLevel' } }), levelBadge(l.level))));
    const table = h('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': 'VTL levels and maximum waits' },
      h('table', { class: 'data-table vtl-levels' },
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Level'), h('th', { scope: 'col' }, 'Maximum wait'))),
        h('tbody', {}, levels.map((l) => h('tr', {}, h('th', { scope: 'row' }, levelLabel(l.level)),
          h('td', {}, l.maxWaitMinutes === 0 ? 'Immediately' : `${l.maxWaitMinutes} minutes`))))));
    const findings = catalogue.findings().map((section) => h('details', { class: 'vtl-findings' },
      h('summary', {}, section.letter ? `${section.letter} — ${section.title}` : section.title),
      h('ul', { class: 'plain' }, section.items.map((item) => h('li', {}, item.label, ' → ', h('strong', {}, levelLabel(item.level)))))));
    replace(body,
      h('p', {}, 'VetNet cannot be reached, so the triage engine cannot grade this case. Find the most urgent finding below, give that level, '
        + 'and send: the case is kept on this device and graded by the engine when VetNet is back. If the engine’s level is more urgent, you are alerted.'),
      radios, table, h('h3', {}, 'Findings by ABCDE letter'), findings);
    drawn = true;
  }

  return {
    element,
    show() { if (!drawn) draw(); element.hidden = false; },
    hide() { element.hidden = true; },
    active() { return !element.hidden; },
    level() { const chosen = element.querySelector('input[name=manualLevel]:checked'); return chosen ? Number(chosen.value) : null; },
  };
}

// The intake's result panel: the level as the inputs decide it with its maximum wait (also in
// a compact strip on the form's sticky action bar), why (the ABCDE strip, each fired
// discriminator with its evidence), the abnormal vital signs, suggested specialties and the
// complexity; and below them the box for what follows sending the intake.

import { h, replace, notice, levelBadge, maxWait, words } from '../ui.js';
import { FIELD_NAMES } from './intake-case.js';

function abcdeStrip(abcde) {
  const letters = ['<C>', 'A', 'B', 'C', 'D', 'E'].filter((l) => abcde[l]);
  if (!letters.length) return null;
  return h('ul', { class: 'abcde-strip', 'aria-label': 'ABCDE survey' }, letters.map((l) =>
    h('li', { class: `abcde-${abcde[l]}` }, h('span', { class: 'abcde-key' }, l), h('span', {}, abcde[l]))));
}

/** The result panel: {element, title (its heading, to take the focus), offers (the box for
 *  what follows sending), stickyLevel (the strip for the sticky bar), show(result),
 *  invalid(), offline(), failed(text)}. */
export function resultPanel() {
  // The live level in a compact strip on the sticky action bar, for the narrow layouts where
  // the result panel is far below the vitals being entered (the panel's own level is the
  // one announced, so this copy is hidden from screen readers).
  const stickyLevel = h('div', { class: 'sticky-level', 'aria-hidden': 'true' }, h('span', { class: 'muted' }, 'No level yet'));
  const levelBox = h('div', { class: 'result-level', role: 'status', 'aria-live': 'polite' }, h('p', { class: 'muted' }, 'Choose the species and enter what you find; the level appears as the inputs decide it.'));
  const detailBox = h('div', { class: 'result-detail' });
  const offers = h('div', { class: 'offers', 'aria-live': 'polite' });
  const title = h('h2', { id: 'triage-result-title', tabindex: '-1' }, 'Triage');
  const element = h('aside', { class: 'result-panel glass', 'aria-labelledby': 'triage-result-title' }, title, levelBox, detailBox, offers);

  /** Values the engine refused: no level until they are corrected. */
  function invalid() {
    replace(levelBox, h('p', { class: 'notice notice-warning' }, 'Some values cannot be right — see the highlighted fields. The level appears once they are corrected.'));
    replace(detailBox);
    replace(stickyLevel, h('span', { class: 'muted' }, 'Check the highlighted fields'));
  }

  /** Without the server: the level is given by hand. */
  function offline() {
    replace(levelBox, h('p', { class: 'notice notice-warning' }, 'Offline: the engine cannot grade this case. Give the level by hand from the VTL reference in the form.'));
  }

  /** An evaluation that failed otherwise. */
  function failed(text) {
    replace(levelBox, notice(text));
  }

  /** A triage result (an evaluation's, or a sent intake's or assessment's). */
  function show(result) {
    const wait = result.maxWaitMinutes ?? maxWait(result.level);
    replace(levelBox,
      levelBadge(result.level, { large: true }),
      wait === null ? null : h('p', { class: 'wait' }, wait === 0 ? 'To be seen immediately.' : `To be seen within ${wait} minutes.`),
      result.validatedForSpecies === false ? h('p', { class: 'notice notice-warning' }, `The VTL is validated for dogs and cats; for a ${result.species || 'patient of this species'} vital signs outside its reference range raise the complexity, not the level.`) : null);
    replace(stickyLevel, h('span', { class: 'sticky-level-label' }, 'Level'), levelBadge(result.level));
    const fired = result.fired || [];
    replace(detailBox,
      abcdeStrip(result.abcde || {}),
      h('h3', {}, fired.length ? `Why: ${fired.length} discriminator${fired.length === 1 ? '' : 's'} fired` : 'Why'),
      fired.length ? h('ul', { class: 'fired-list' }, fired.map((d) => h('li', { class: ['fired', `level-edge-${d.colour}`] },
        h('div', { class: 'fired-head' }, levelBadge(d.level), h('strong', {}, d.definition || words(d.id))),
        h('p', { class: 'fired-meta' }, h('code', {}, d.id), d.abcde ? ` · ${d.abcde}` : '', d.subcategory ? ` · ${d.subcategory}` : ''),
        h('ul', { class: 'evidence' }, (d.evidence || []).map((e) => h('li', {}, `${FIELD_NAMES[e.field] || words(e.field.split('.').pop())}: ${e.value}`))))))
        : h('p', { class: 'muted' }, result.fallThrough ? `${result.fallThrough[0].toUpperCase()}${result.fallThrough.slice(1)}.` : 'No discriminator fired.'),
      (result.abnormalVitals || []).length ? [h('h3', {}, 'Abnormal vital signs'), h('ul', { class: 'plain' }, result.abnormalVitals.map((v) =>
        h('li', {}, `${FIELD_NAMES[v.field] || v.field}: ${v.value} — ${v.interpretation} (reference ${v.reference})`)))] : null,
      (result.specialties || []).length ? [h('h3', {}, 'Suggested specialties'), h('ol', { class: 'plain' }, result.specialties.slice(0, 3).map((s) =>
        h('li', {}, h('strong', {}, s.displayName), h('span', { class: 'muted' }, ` — ${(s.reasons || []).join('; ')}`))))] : null,
      result.complexity ? h('p', { class: 'muted' }, `Complexity ${Number(result.complexity.score).toFixed(2)} of 1`) : null);
  }

  return { element, title, offers, stickyLevel, show, invalid, offline, failed };
}

// Patients: search as you type (patient or owner name, phone, record number, microchip) with
// filters and paging; each result opens the record. A patient is registered here without a
// triage (register.js) or at intake with one.

import * as api from '../api.js';
import * as live from '../live.js';
import { h, replace, field, select, debounce, announce, words } from '../ui.js';
import { loadInto } from '../forms.js';
import * as catalogue from '../catalogue.js';
import { pendingPanel } from '../offline/outbox.js';

const PAGE = 20;

export function render(container, { query, session }) {
  let alive = true;
  let cursors = [null]; // the cursor of each page seen, for "Previous"
  let page = 0;
  let nextCursor = null;

  const search = h('input', { type: 'search', value: query.q || '', placeholder: 'Name, owner, phone, record number or microchip' });
  const species = select(catalogue.species().map((s) => [s, words(s)]), { blank: 'All species', value: query.species || '' });
  const status = select([['active', 'Active'], ['deceased', 'Deceased'], ['archived', 'Archived']], { blank: 'Any status', value: query.status ?? 'active' });
  const results = h('div', { class: 'results', 'aria-live': 'polite', 'aria-busy': 'false' });
  const previous = h('button', { type: 'button', class: 'button', disabled: true }, 'Previous page');
  const next = h('button', { type: 'button', class: 'button', disabled: true }, 'Next page');
  const pageLabel = h('span', { class: 'muted' });

  replace(container, h('section', { class: 'screen patients', 'aria-labelledby': 'patients-title' },
    h('header', { class: 'screen-header' }, h('h1', { id: 'patients-title' }, 'Patients'),
      session.can('writeRecords') ? h('a', { class: 'button', href: '#/patients/new' }, 'Register a patient') : null,
      session.can('triage') ? h('a', { class: 'button primary', href: '#/intake' }, 'Register at intake') : null),
    pendingPanel((e) => e.method === 'POST' && ['/owners', '/patients'].includes(e.path), 'Registrations waiting to send'),
    h('form', { class: 'panel glass search-bar', role: 'search', on: { submit: (e) => { e.preventDefault(); restart(); } } },
      h('div', { class: 'grid-fields' },
        field('Search', search, { wide: true }),
        field('Species', species),
        field('Status', status))),
    results,
    h('nav', { class: 'row pager', 'aria-label': 'Result pages' }, previous, pageLabel, next)));

  function load() {
    const query = { q: search.value.trim(), species: species.value, status: status.value, limit: PAGE, cursor: cursors[page] || undefined };
    return loadInto(results, () => api.get('/patients', query), (data) => {
      nextCursor = data.nextCursor || null;
      replace(results, data.items.length ? h('ul', { class: 'patient-list' }, data.items.map(({ patient, ownerName }) => h('li', {},
        h('a', { class: 'patient-row glass', href: `#/patients/${patient.id}` },
          h('span', { class: 'patient-name' }, patient.name),
          h('span', {}, `${words(patient.species)}${patient.breed ? ` · ${patient.breed}` : ''}${patient.age ? ` · ${patient.age}` : ''}`),
          h('span', { class: 'muted' }, `${ownerName} · ${patient.medicalRecordNumber}`),
          patient.status !== 'active' ? h('span', { class: 'chip' }, words(patient.status)) : null,
          (patient.alerts || []).map((a) => h('span', { class: 'chip chip-alert' }, a))))))
        : h('p', { class: 'empty-state' }, search.value.trim() ? 'No patient matches this search.' : 'No patients.'));
      previous.disabled = page === 0;
      next.disabled = !nextCursor;
      pageLabel.textContent = `Page ${page + 1}`;
      announce(`${data.items.length} patients on page ${page + 1}`);
    }, { alive: () => alive, markBusy: true });
  }

  function restart() {
    cursors = [null];
    page = 0;
    const params = new URLSearchParams();
    if (search.value.trim()) params.set('q', search.value.trim());
    if (species.value) params.set('species', species.value);
    if (status.value !== 'active') params.set('status', status.value);
    history.replaceState(null, '', `#/patients${params.toString() ? `?${params}` : ''}`);
    load();
  }

  const typed = debounce(restart, 250);
  search.addEventListener('input', typed);
  species.addEventListener('change', restart);
  status.addEventListener('change', restart);
  next.addEventListener('click', () => { if (!nextCursor) return; page += 1; cursors[page] = nextCursor; load(); });
  previous.addEventListener('click', () => { if (page === 0) return; page -= 1; load(); });

  const unsubscribe = live.subscribe(['patient.*', 'owner.updated'], () => load());
  load();
  return () => { alive = false; typed.cancel(); unsubscribe(); };
}

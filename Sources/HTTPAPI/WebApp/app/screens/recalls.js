// Recalls: the patients due back — vaccinations and visit follow-ups due within the days
// chosen, and those overdue (GET /recalls/due and GET /vaccinations/due) — with each patient's
// owner and how to reach them (the lists name the patient only, so the owners are read as
// needed), a link to each record, and the rows shown exported as CSV for the phone calls and
// letters.

import * as api from '../api.js';
import * as live from '../live.js';
import { h, replace, field, select, announce, words, plainDate, today, problemText } from '../ui.js';
import { loadInto } from '../forms.js';

const WINDOWS = [7, 14, 30, 60, 90, 180, 365];
const KINDS = [['', 'All recalls'], ['vaccination', 'Vaccinations'], ['follow_up', 'Follow-ups']];
/** Owners and patients read at once while filling the contacts in. */
const PARALLEL = 4;

/** A CSV field: quoted when it holds a comma, a quote, a line break or edge spaces (quotes
 *  doubled); text a spreadsheet would run as a formula starts with an apostrophe. */
export function csvField(value) {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=@\t\r]/.test(text) || (/^[+-]/.test(text) && !/^[+-][\d\s().-]*$/.test(text))) text = `'${text}`;
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows (arrays of fields) as CSV text, CRLF-separated as RFC 4180 has it. */
export function toCSV(rows) {
  return rows.map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/** The recalls and the vaccinations due as one list: each vaccination the recall list names
 *  once, with when it was last given; overdue first, then by due date. */
export function mergeDue(recalls, vaccinations) {
  const rows = [];
  const byVaccination = new Map();
  for (const [list, overdue] of [[recalls.overdue || [], true], [recalls.dueSoon || [], false]]) {
    for (const r of list) {
      const row = { kind: r.kind, patientId: r.patientId, patientName: r.patientName || '', dueDate: r.dueDate, description: r.description, overdue, sourceId: r.sourceId };
      rows.push(row);
      if (r.kind === 'vaccination') byVaccination.set(r.sourceId, row);
    }
  }
  for (const [list, overdue] of [[vaccinations.overdue || [], true], [vaccinations.dueSoon || [], false]]) {
    for (const v of list) {
      const known = byVaccination.get(v.id);
      if (known) { known.lastGiven = v.administeredDate; continue; }
      rows.push({ kind: 'vaccination', patientId: v.patientId, patientName: v.patientName || '', dueDate: v.nextDueDate, description: v.vaccine, overdue, sourceId: v.id, lastGiven: v.administeredDate });
    }
  }
  return rows.sort((a, b) => Number(b.overdue) - Number(a.overdue) || (a.dueDate || '').localeCompare(b.dueDate || '') || a.patientName.localeCompare(b.patientName));
}

export function render(container, { query }) {
  let alive = true;
  let token = 0;
  let rows = [];
  let asOfShown = today();
  const owners = new Map(); // ownerId → owner (or null when it could not be read)
  const patients = new Map(); // patientId → patient (or null)

  const initial = WINDOWS.includes(Number(query.within)) ? String(query.within) : '30';
  const within = select(WINDOWS.map((d) => [String(d), `${d} days`]), { value: initial });
  const kind = select(KINDS, { value: KINDS.some(([k]) => k === query.kind) ? query.kind : '' });
  const exportButton = h('button', { type: 'button', class: 'button', disabled: true }, 'Export CSV');
  const exportStatus = h('div', { class: 'download-status', role: 'status' });
  const summary = h('p', { class: 'muted recall-summary', 'aria-live': 'polite' });
  const results = h('div', { class: 'results', 'aria-busy': 'false' }, h('p', { class: 'muted' }, 'Loading…'));

  replace(container, h('section', { class: 'screen recalls', 'aria-labelledby': 'recalls-title' },
    h('header', { class: 'screen-header' }, h('h1', { id: 'recalls-title' }, 'Recalls'), exportButton),
    h('form', { class: 'panel glass search-bar', 'aria-label': 'Which recalls', on: { submit: (e) => { e.preventDefault(); restart(); } } },
      h('div', { class: 'grid-fields' },
        field('Due within', within, { hint: 'Overdue recalls are always listed.' }),
        field('Show', kind))),
    summary, exportStatus, results));

  function shown() { return kind.value ? rows.filter((r) => r.kind === kind.value) : rows; }

  function load() {
    const mine = ++token;
    const current = () => alive && mine === token;
    const days = Number(within.value);
    return loadInto(results, async () => {
      const [recalls, vaccinations] = await Promise.all([
        api.get('/recalls/due', { withinDays: days }),
        api.get('/vaccinations/due', { withinDays: days }),
      ]);
      return { asOf: recalls.asOf || vaccinations.asOf, rows: mergeDue(recalls, vaccinations) };
    }, (answer) => {
      rows = answer.rows;
      asOfShown = answer.asOf || today();
      draw();
      fillContacts(current);
    }, { alive: current, markBusy: true });
  }

  function draw() {
    const asOf = asOfShown;
    const list = shown();
    exportButton.disabled = !list.length;
    const overdue = list.filter((r) => r.overdue).length;
    summary.textContent = `${list.length} recall${list.length === 1 ? '' : 's'} as of ${plainDate(asOf)}: ${overdue} overdue, ${list.length - overdue} due within ${within.value} days.`;
    if (!list.length) { replace(results, h('p', { class: 'empty-state' }, 'No recall is due in this window.')); return; }
    replace(results, h('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-labelledby': 'recalls-caption' },
      h('table', { class: 'data-table recall-table' },
        h('caption', { id: 'recalls-caption' }, `Recalls due within ${within.value} days, overdue first`),
        h('thead', {}, h('tr', {}, ['Patient', 'Owner', 'Phone', 'Email', 'Due', 'What'].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, list.map((r) => {
          const contact = contactOf(r.patientId);
          return h('tr', { class: r.overdue ? 'row-flag' : null, dataset: { patient: r.patientId, kind: r.kind, source: r.sourceId } },
            h('th', { scope: 'row' }, h('a', { class: 'entry-link', href: `#/patients/${encodeURIComponent(r.patientId)}` }, r.patientName || 'Patient')),
            h('td', { class: 'recall-owner' }, contact.owner),
            h('td', { class: 'recall-phone' }, contact.phones.length ? contact.phones.map((p, i) => [i ? h('br') : null,
              h('a', { class: 'contact-link', href: `tel:${p.number.replace(/[^+\d]/g, '')}` }, p.number), h('span', { class: 'muted' }, ` ${words(p.label)}`)]) : contact.pending ? '…' : '—'),
            h('td', { class: 'recall-email' }, contact.email ? h('a', { class: 'contact-link', href: `mailto:${contact.email}` }, contact.email) : contact.pending ? '…' : '—'),
            h('td', { class: 'recall-due' }, plainDate(r.dueDate), ' ', h('span', { class: ['chip', r.overdue ? 'chip-alert' : 'chip-warning'] }, r.overdue ? 'Overdue' : 'Due')),
            h('td', { class: 'recall-what' }, h('strong', {}, r.kind === 'vaccination' ? 'Vaccination' : r.kind === 'follow_up' ? 'Follow-up' : words(r.kind)),
              `: ${r.description}`, r.lastGiven ? h('span', { class: 'muted' }, ` (last given ${plainDate(r.lastGiven)})`) : null));
        })))));
  }

  /** The owner's name and contact for a patient's row, as far as read. */
  function contactOf(patientId) {
    const patient = patients.get(patientId);
    if (patient === undefined) return { owner: '…', phones: [], email: '', pending: true };
    if (patient === null) return { owner: 'Not available', phones: [], email: '' };
    const owner = owners.get(patient.ownerId);
    if (owner === undefined) return { owner: '…', phones: [], email: '', pending: true };
    if (owner === null) return { owner: 'Not available', phones: [], email: '' };
    return { owner: `${owner.firstName} ${owner.lastName}`, phones: owner.phones || [], email: owner.email || '', owned: owner };
  }

  /** Reads each patient's owner once (a few at a time), redrawing as they arrive. */
  async function fillContacts(current) {
    const missing = [...new Set(rows.map((r) => r.patientId))].filter((id) => !patients.has(id));
    const queue = [...missing];
    const worker = async () => {
      while (queue.length && current()) {
        const id = queue.shift();
        const patient = await api.get(`/patients/${encodeURIComponent(id)}`).catch(() => null);
        patients.set(id, patient);
        if (patient && !owners.has(patient.ownerId)) {
          owners.set(patient.ownerId, undefined);
          owners.set(patient.ownerId, await api.get(`/owners/${encodeURIComponent(patient.ownerId)}`).catch(() => null));
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL, queue.length) }, worker));
    // An owner another worker was still reading is waited for by reading it once more.
    for (const id of missing) {
      const patient = patients.get(id);
      if (patient && owners.get(patient.ownerId) === undefined && current()) {
        owners.set(patient.ownerId, await api.get(`/owners/${encodeURIComponent(patient.ownerId)}`).catch(() => null));
      }
    }
    if (current()) { draw(); announce('Owners’ contacts filled in'); }
  }

  /** The address says what is shown (a link to the same list). */
  function address() {
    const params = new URLSearchParams();
    if (within.value !== '30') params.set('within', within.value);
    if (kind.value) params.set('kind', kind.value);
    history.replaceState(null, '', `#/recalls${params.toString() ? `?${params}` : ''}`);
  }

  function restart() { address(); load(); }

  exportButton.addEventListener('click', () => {
    const list = shown();
    const header = ['Patient', 'Owner', 'Phone', 'Email', 'Kind', 'Due', 'Status', 'What', 'Last given'];
    const lines = list.map((r) => {
      const contact = contactOf(r.patientId);
      return [r.patientName, contact.pending ? '' : contact.owner, contact.phones.map((p) => p.number).join('; '), contact.email,
        r.kind === 'vaccination' ? 'Vaccination' : r.kind === 'follow_up' ? 'Follow-up' : r.kind, r.dueDate, r.overdue ? 'Overdue' : 'Due', r.description, r.lastGiven || ''];
    });
    const name = `vetnet-recalls-${today()}-within-${within.value}-days.csv`;
    try {
      const url = URL.createObjectURL(new Blob([toCSV([header, ...lines])], { type: 'text/csv;charset=utf-8' }));
      const link = h('a', { href: url, download: name, class: 'visually-hidden', tabindex: '-1' }, name);
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60000);
      replace(exportStatus, h('p', { class: 'notice notice-success' }, `Exported ${lines.length} row${lines.length === 1 ? '' : 's'} to ${name}.`));
    } catch (error) {
      replace(exportStatus, h('p', { class: 'notice notice-error' }, problemText(error)));
    }
  });

  within.addEventListener('change', restart);
  kind.addEventListener('change', () => { address(); replace(exportStatus); draw(); });

  const unsubscribe = live.subscribe(['record.entry_added', 'patient.updated', 'patient.archived', 'owner.updated'], (events) => {
    if (events.some((e) => e.kind === 'owner.updated')) { owners.clear(); patients.clear(); }
    load();
  });
  load();
  return () => { alive = false; unsubscribe(); };
}

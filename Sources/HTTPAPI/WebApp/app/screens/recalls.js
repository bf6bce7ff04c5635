// Recalls: the patients due back — vaccinations and visit follow-ups due between the dates
// chosen, and (unless left out) those overdue (GET /recalls/due and GET /vaccinations/due, asked
// for enough days to reach the last date) — with each patient's owner, how to reach them and
// how they prefer to be reached (the lists name the patient only, so the owners are read as
// needed), a link to each record, and the rows shown exported as CSV for the calls and letters.

import * as api from '../api.js';
import * as live from '../live.js';
import { h, replace, field, select, announce, words, plainDate, today, addDays, uid, showErrors, problemText } from '../ui.js';
import { loadInto } from '../forms.js';

/** The furthest the lists look ahead (the API's limit of withinDays). */
const MAX_DAYS = 365;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** An owner's preferred channel in words. */
const channelWords = (channel) => (channel === 'sms' ? 'SMS' : words(channel || ''));
/** Whole days from one yyyy-MM-dd date to another. */
const daysBetween = (a, b) => Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86400000);
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

  const start = today();
  const fromInput = h('input', { type: 'date', value: DAY.test(query.from || '') ? query.from : start });
  const toInput = h('input', { type: 'date', value: DAY.test(query.to || '') ? query.to : addDays(start, Number(query.within) > 0 ? Math.min(Number(query.within), MAX_DAYS) : 30) });
  const overdueBox = h('input', { type: 'checkbox', id: uid('overdue'), checked: query.overdue !== '0' });
  const rangeErrors = h('div', { class: 'form-errors', role: 'alert', hidden: true });
  /** The days asked of the API: enough to reach the last date (never fewer than none). */
  const within = { get value() { return String(Math.min(MAX_DAYS, Math.max(0, daysBetween(today(), toInput.value || today())))); } };
  const kind = select(KINDS, { value: KINDS.some(([k]) => k === query.kind) ? query.kind : '' });
  const exportButton = h('button', { type: 'button', class: 'button', disabled: true }, 'Export CSV');
  const exportStatus = h('div', { class: 'download-status', role: 'status' });
  const summary = h('p', { class: 'muted recall-summary', 'aria-live': 'polite' });
  const results = h('div', { class: 'results', 'aria-busy': 'false' }, h('p', { class: 'muted' }, 'Loading…'));

  replace(container, h('section', { class: 'screen recalls', 'aria-labelledby': 'recalls-title' },
    h('header', { class: 'screen-header' }, h('h1', { id: 'recalls-title' }, 'Recalls'), exportButton),
    h('form', { class: 'panel glass search-bar recall-range', 'aria-label': 'Which recalls', novalidate: true, on: { submit: (e) => { e.preventDefault(); restart(); } } },
      h('div', { class: 'grid-fields' },
        field('Due from', fromInput, { fieldName: 'from' }),
        field('Due until', toInput, { fieldName: 'to', hint: `Up to ${MAX_DAYS} days ahead.` }),
        field('Show', kind),
        h('div', { class: 'field check' }, overdueBox, h('label', { for: overdueBox.id }, 'Include overdue'))),
      rangeErrors),
    summary, exportStatus, results));

  /** The rows of the kind chosen, due in the range (and overdue ones when included). */
  function shown() {
    const from = fromInput.value || '0000-01-01';
    const to = toInput.value || '9999-12-31';
    return rows.filter((r) => (!kind.value || r.kind === kind.value)
      && ((r.overdue && overdueBox.checked) || (!r.overdue && r.dueDate >= from && r.dueDate <= to)));
  }

  /** The range as the person typed it, or why it cannot be shown (at its field). */
  function rangeProblem() {
    if (!fromInput.value) return { field: 'from', message: 'Enter the first date.' };
    if (!toInput.value) return { field: 'to', message: 'Enter the last date.' };
    if (toInput.value < fromInput.value) return { field: 'to', message: 'The last date comes before the first.' };
    if (daysBetween(today(), toInput.value) > MAX_DAYS) return { field: 'to', message: `At most ${MAX_DAYS} days ahead.` };
    return null;
  }

  function load() {
    const mine = ++token;
    const current = () => alive && mine === token;
    const days = Number(within.value);
    askedDays = days;
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
    const range = `${plainDate(fromInput.value)} – ${plainDate(toInput.value)}`;
    summary.textContent = `${list.length} recall${list.length === 1 ? '' : 's'} as of ${plainDate(asOf)}: ${overdueBox.checked ? `${overdue} overdue, ` : ''}${list.length - overdue} due ${range}.`;
    if (!list.length) { replace(results, h('p', { class: 'empty-state' }, 'No recall is due in this range.')); return; }
    replace(results, h('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-labelledby': 'recalls-caption' },
      h('table', { class: 'data-table recall-table' },
        h('caption', { id: 'recalls-caption' }, `Recalls due ${range}${overdueBox.checked ? ', overdue first' : ''}`),
        h('thead', {}, h('tr', {}, ['Patient', 'Owner', 'Prefers', 'Phone', 'Email', 'Due', 'What'].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, list.map((r) => {
          const contact = contactOf(r.patientId);
          return h('tr', { class: r.overdue ? 'row-flag' : null, dataset: { patient: r.patientId, kind: r.kind, source: r.sourceId } },
            h('th', { scope: 'row' }, h('a', { class: 'entry-link', href: `#/patients/${encodeURIComponent(r.patientId)}` }, r.patientName || 'Patient')),
            h('td', { class: 'recall-owner' }, contact.owner),
            h('td', { class: 'recall-channel' }, contact.channel ? channelWords(contact.channel) : contact.pending ? '…' : '—'),
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
    return { owner: `${owner.firstName} ${owner.lastName}`, phones: owner.phones || [], email: owner.email || '', channel: owner.communication?.preferredChannel || '', owned: owner };
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
    // An owner another worker was still reading — this load's, or one a live update
    // superseded, which will not draw — is waited for by reading it once more.
    for (const id of new Set(rows.map((r) => r.patientId))) {
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
    if (fromInput.value !== today()) params.set('from', fromInput.value);
    if (toInput.value !== addDays(today(), 30)) params.set('to', toInput.value);
    if (!overdueBox.checked) params.set('overdue', '0');
    if (kind.value) params.set('kind', kind.value);
    history.replaceState(null, '', `#/recalls${params.toString() ? `?${params}` : ''}`);
  }

  /** A change of the range: the lists are asked again only when they must reach further. */
  let askedDays = -1;
  function restart() {
    const problem = rangeProblem();
    showErrors(rangeForm(), problem ? [problem] : []);
    if (problem) return;
    address();
    if (Number(within.value) > askedDays || askedDays < 0) load(); else { replace(exportStatus); draw(); }
  }
  const rangeForm = () => fromInput.closest('form');

  exportButton.addEventListener('click', () => {
    const list = shown();
    const header = ['Patient', 'Owner', 'Phone', 'Email', 'Kind', 'Due', 'Status', 'What', 'Last given', 'Preferred contact'];
    const lines = list.map((r) => {
      const contact = contactOf(r.patientId);
      return [r.patientName, contact.pending ? '' : contact.owner, contact.phones.map((p) => p.number).join('; '), contact.email,
        r.kind === 'vaccination' ? 'Vaccination' : r.kind === 'follow_up' ? 'Follow-up' : r.kind, r.dueDate, r.overdue ? 'Overdue' : 'Due', r.description, r.lastGiven || '',
        contact.channel ? channelWords(contact.channel) : ''];
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

  for (const input of [fromInput, toInput, overdueBox]) input.addEventListener('change', restart);
  kind.addEventListener('change', () => { address(); replace(exportStatus); draw(); });

  const unsubscribe = live.subscribe(['record.entry_added', 'patient.updated', 'patient.archived', 'owner.updated'], (events) => {
    if (events.some((e) => e.kind === 'owner.updated')) { owners.clear(); patients.clear(); }
    load();
  });
  load();
  return () => { alive = false; unsubscribe(); };
}

// Correcting the record (POST /patients/{id}/corrections): nothing recorded is deleted. Beside
// each entry stand the corrections its kind allows — a medication stopped or re-dosed (a new
// version from a date), a problem resolved or reopened, an allergy graded again or refuted, a
// vaccination corrected, and any entry marked as entered in error — each in a small dialog that
// shows the API's refusals at their fields (a change the entry's state does not allow, 409, as
// a message). Entries entered in error or refuted stay in their section, struck through, with
// who, when and why.

import * as api from '../api.js';
import { h, field, select, toast, announce, words, dateTime, today, uid, showErrors } from '../ui.js';
import { submitForm } from '../forms.js';

const ROUTES = ['oral', 'subcutaneous', 'intramuscular', 'intravenous', 'topical', 'ophthalmic', 'otic', 'intranasal', 'inhaled', 'rectal', 'transdermal'];
const SEVERITIES = ['mild', 'moderate', 'severe', 'life_threatening'];
/** The kinds of entry a clinician corrects (the others, weights and vaccinations, need writeRecords). */
const CLINICAL = ['problem', 'allergy', 'medication', 'note'];

/** Whether `session` may correct entries of `entryType`. */
export function mayCorrect(session, entryType) {
  return session.can(CLINICAL.includes(entryType) ? 'writeClinical' : 'writeRecords');
}

const text = (attrs = {}) => h('input', { type: 'text', autocomplete: 'off', ...attrs });
const reasonBox = () => h('textarea', { rows: 2, maxlength: 1000, required: true, 'aria-required': 'true' });
const dateBox = (value = today()) => h('input', { type: 'date', value: value || '' });
const trimmed = (input) => input.value.trim();

/**
 * The correction actions that apply to one entry: [{action, label, title, controls(), body()}].
 * `entry` is the entry as the record holds it.
 */
function actionsFor(entryType, entry) {
  const list = [];
  if (entryType === 'medication' && !entry.endDate) {
    const stopDate = dateBox();
    const stopReason = reasonBox();
    list.push({
      action: 'stop', label: 'Stop', title: `Stop ${entry.drug}`,
      controls: [field('Stop on', stopDate, { fieldName: 'date' }), field('Reason', stopReason, { fieldName: 'reason', wide: true })],
      check: () => (trimmed(stopReason) ? [] : [{ field: 'reason', message: 'Say why it is stopped.' }]),
      body: () => ({ date: stopDate.value || undefined, reason: trimmed(stopReason) }),
    });
    const from = dateBox();
    const dose = h('input', { type: 'number', step: 'any', min: 0, inputmode: 'decimal', value: entry.doseMgPerKg ?? '' });
    const frequency = text({ value: entry.frequency || '', maxlength: 200 });
    const route = select(ROUTES.map((r) => [r, words(r)]), { value: entry.route });
    list.push({
      action: 'change', label: 'Change dose', title: `Change the dose of ${entry.drug}`,
      controls: [h('p', { class: 'hint' }, 'The course so far ends on that day and a new version starts from it.'),
        h('div', { class: 'grid-fields' },
          field('From', from, { fieldName: 'date' }),
          field('Dose', dose, { fieldName: 'doseMgPerKg', unit: 'mg/kg' }),
          field('Frequency', frequency, { fieldName: 'frequency' }),
          field('Route', route, { fieldName: 'route' }))],
      check: () => (dose.value.trim() !== '' && !(Number(dose.value) > 0) ? [{ field: 'doseMgPerKg', message: 'Enter a dose above 0.' }] : []),
      body: () => {
        const changed = { date: from.value || undefined };
        if (dose.value.trim() !== '' && Number(dose.value) !== entry.doseMgPerKg) changed.doseMgPerKg = Number(dose.value);
        if (trimmed(frequency) && trimmed(frequency) !== entry.frequency) changed.frequency = trimmed(frequency);
        if (route.value !== entry.route) changed.route = route.value;
        return changed;
      },
    });
  }
  if (entryType === 'problem') {
    if ((entry.status || 'active') === 'active') {
      const on = dateBox();
      const note = h('textarea', { rows: 2, maxlength: 1000 });
      list.push({
        action: 'resolve', label: 'Resolve', title: `Resolve ${entry.name}`,
        controls: [field('Resolved on', on, { fieldName: 'date' }), field('Note', note, { fieldName: 'note', wide: true })],
        body: () => ({ date: on.value || undefined, note: trimmed(note) || undefined }),
      });
    } else {
      const note = h('textarea', { rows: 2, maxlength: 1000 });
      list.push({
        action: 'reopen', label: 'Reopen', title: `Reopen ${entry.name}`,
        controls: [field('Note', note, { fieldName: 'note', wide: true })],
        body: () => ({ note: trimmed(note) || undefined }),
      });
    }
  }
  if (entryType === 'allergy') {
    const severity = select(SEVERITIES.map((s) => [s, words(s)]), { value: entry.severity });
    const reaction = text({ value: entry.reaction || '', maxlength: 500 });
    list.push({
      action: 'update', label: 'Update', title: `Update the allergy to ${entry.substance}`,
      controls: [h('div', { class: 'grid-fields' }, field('Severity', severity, { fieldName: 'severity' }), field('Reaction', reaction, { fieldName: 'reaction' }))],
      body: () => ({ severity: severity.value, reaction: trimmed(reaction) || undefined }),
    });
    const why = reasonBox();
    list.push({
      action: 'refute', label: 'Refute', title: `Refute the allergy to ${entry.substance}`,
      controls: [field('Reason', why, { fieldName: 'reason', wide: true, hint: 'The allergy stays in the record, struck through, with this reason.' })],
      check: () => (trimmed(why) ? [] : [{ field: 'reason', message: 'Say why it is refuted.' }]),
      body: () => ({ reason: trimmed(why) }),
    });
  }
  if (entryType === 'vaccination') {
    const batch = text({ value: entry.batchNumber || '', maxlength: 100 });
    const given = dateBox(entry.administeredDate);
    const due = dateBox(entry.nextDueDate);
    list.push({
      action: 'correct', label: 'Correct', title: `Correct ${entry.vaccine}`,
      controls: [h('div', { class: 'grid-fields' },
        field('Batch', batch, { fieldName: 'batchNumber' }), field('Given on', given, { fieldName: 'administeredDate' }), field('Next due', due, { fieldName: 'nextDueDate' }))],
      body: () => ({ batchNumber: trimmed(batch) || undefined, administeredDate: given.value || undefined, nextDueDate: due.value || undefined }),
    });
  }
  const reason = reasonBox();
  list.push({
    action: 'enteredInError', label: 'Entered in error', title: `Mark as entered in error: ${describe(entryType, entry)}`,
    controls: [field('Reason', reason, { fieldName: 'reason', wide: true, hint: 'The entry stays in the record, struck through, and no longer counts.' })],
    check: () => (trimmed(reason) ? [] : [{ field: 'reason', message: 'Say why it was entered in error.' }]),
    body: () => ({ reason: trimmed(reason) }),
  });
  return list;
}

/** A short name of an entry, for buttons and dialog titles. */
function describe(entryType, entry) {
  switch (entryType) {
    case 'weight': return `weight ${entry.value} ${entry.unit}`;
    case 'medication': return entry.drug;
    case 'problem': return entry.name;
    case 'allergy': return `allergy to ${entry.substance}`;
    case 'vaccination': return entry.vaccine;
    case 'note': return `note of ${dateTime(entry.createdAt)}`;
    default: return 'entry';
  }
}

/**
 * The correction buttons of one entry (none when `session` may not correct it). `onCorrected`
 * receives the record as it now stands.
 */
export function correctionActions(entryType, entry, { patientId, session, onCorrected }) {
  if (!mayCorrect(session, entryType)) return null;
  const name = describe(entryType, entry);
  return h('div', { class: 'row wrap correction-actions', dataset: { entry: entry.id } },
    actionsFor(entryType, entry).map((spec) => h('button', {
      type: 'button', class: 'button quiet', dataset: { correct: spec.action }, 'aria-label': `${spec.label}: ${name}`,
      // Fresh controls each time: a dialog closed without saving leaves nothing behind.
      on: { click: (event) => openDialog(entryType, entry, actionsFor(entryType, entry).find((s) => s.action === spec.action), { opener: event.currentTarget, patientId, onCorrected }) },
    }, spec.label)));
}

function openDialog(entryType, entry, spec, { opener, patientId, onCorrected }) {
  const titleId = uid('correct-title');
  const dialog = h('dialog', { class: 'dialog glass screen-dialog correction-dialog', 'aria-labelledby': titleId, dataset: { correction: spec.action } });
  const close = () => { if (dialog.open) dialog.close(); dialog.remove(); };
  dialog.addEventListener('close', () => { dialog.remove(); if (opener?.isConnected) opener.focus(); });
  const save = h('button', { type: 'submit', class: 'button primary' }, spec.label);
  const form = h('form', { class: 'stack-form', novalidate: true },
    spec.controls,
    h('div', { class: 'form-errors', role: 'alert', hidden: true }),
    h('div', { class: 'row end' }, h('button', { type: 'button', class: 'button quiet', on: { click: close } }, 'Cancel'), save));
  const key = api.newKey();
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const local = spec.check?.() || [];
    if (local.length) { showErrors(form, local); form.querySelector('[aria-invalid="true"]')?.focus(); return; }
    await submitForm(form, save, async () => {
      const record = await api.post(`/patients/${encodeURIComponent(patientId)}/corrections`,
        { entryType, entryId: entry.id, action: spec.action, ...spec.body() }, { idempotencyKey: key });
      const done = `${spec.label}: ${describe(entryType, entry)} — saved`;
      close();
      toast(done, 'success');
      announce(done);
      onCorrected(record);
    }, { label: 'Saving…', focus: true });
  });
  dialog.append(h('h2', { id: titleId }, spec.title), form);
  document.body.append(dialog);
  dialog.showModal();
  form.querySelector('input, select, textarea')?.focus();
}

/** The entries of `entryType` that no longer count, struck through with who, when and why. */
export function retractedItems(record, entryType, session) {
  return (record.retracted || []).filter((r) => r.entryType === entryType).map((r) => {
    const label = r.kind === 'refuted' ? 'Refuted' : 'Entered in error';
    return h('li', { class: 'retracted', dataset: { entry: r.entryId, retracted: r.kind } },
      h('s', {}, r.summary), ' ',
      h('span', { class: 'chip chip-warning' }, label),
      h('span', { class: 'muted' }, ` · ${dateTime(r.at)}${r.by ? ` by ${who(r.by, session)}` : ''}`),
      r.reason ? h('span', {}, ` · ${r.reason}`) : null);
  });
}

/** How the corrections of the record describe a medication's end (stopped, or a new version). */
export function medicationEnd(record, medication) {
  if (!medication.endDate) return null;
  const last = [...(record.corrections || [])].reverse().find((c) => c.entryId === medication.id && (c.action === 'stop' || c.action === 'change'));
  if (last?.action === 'change') return 'replaced by a new dose';
  if (last?.action === 'stop') return `stopped${last.reason ? `: ${last.reason}` : ''}`;
  return null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
function who(by, session) {
  if (by === session.user.id) return session.user.displayName || 'you';
  return UUID.test(by) ? 'a colleague' : by;
}

// Notes on an appointment (GET/POST /appointments/{id}/notes): kept as written, never edited,
// oldest first with who wrote them and when. The schedule's dialog lists them with a box to add
// one; its cards show how many there are, as the schedule list counts them (`noteCount`: a
// count, not a read of the notes, so opening a day reads no one's notes).

import * as api from '../api.js';
import { h, replace, field, announce, dateTime, notice, problemText } from '../ui.js';
import { submitForm } from '../forms.js';

/** Appointment id → number of notes, as last read. */
const counts = new Map();

/** The number of notes known for an appointment (undefined before it is read). */
export function noteCount(id) { return counts.get(id); }

/** Forgets the counts of `ids` (their appointments changed), or all of them. */
export function forgetCounts(ids) { if (ids) ids.forEach((id) => counts.delete(id)); else counts.clear(); }

/** Takes the counts the schedule list gives (`noteCount` of each appointment of `list`). */
export async function loadCounts(list) {
  for (const a of list) if (typeof a.noteCount === 'number') counts.set(a.id, a.noteCount);
}

/** The dialog's notes: the list and a box to add one. `changed(count)`: a note was added. */
export function notesSection(appointment, changed) {
  const list = h('ol', { class: 'plain entries appt-notes', 'aria-label': 'Notes on this appointment' }, h('li', { class: 'muted' }, 'Loading notes…'));
  const text = h('textarea', { rows: 2, maxlength: 2000 });
  const add = h('button', { type: 'submit', class: 'button' }, 'Add note');
  const form = h('form', { class: 'stack-form note-form', novalidate: true },
    field('New note', text, { fieldName: 'text', wide: true }),
    h('div', { class: 'form-errors', role: 'alert', hidden: true }),
    h('div', { class: 'row end' }, add));
  let notes = [];
  // One key per note typed: a retry of the same text is stored once.
  let sent = { text: '', key: '' };

  const draw = () => replace(list, notes.length ? notes.map((n) => h('li', { class: 'appt-note', dataset: { note: n.id } },
    h('p', { class: 'muted' }, h('strong', {}, n.authorName), ` · ${dateTime(n.createdAt)}`),
    h('p', { class: 'note-text' }, n.text))) : h('li', { class: 'muted' }, 'No notes yet.'));

  api.get(`/appointments/${appointment.id}/notes`).then((answer) => {
    notes = answer.items;
    counts.set(appointment.id, notes.length);
    draw();
  }).catch((error) => replace(list, h('li', {}, notice(problemText(error)))));

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (text.value !== sent.text) sent = { text: text.value, key: api.newKey() };
    await submitForm(form, add, async () => {
      const note = await api.post(`/appointments/${appointment.id}/notes`, { text: text.value }, { idempotencyKey: sent.key });
      if (!notes.some((n) => n.id === note.id)) notes.push(note);
      counts.set(appointment.id, notes.length);
      text.value = '';
      sent = { text: '', key: '' };
      draw();
      announce('Note added');
      changed?.(notes.length);
    }, { label: 'Adding…', focus: true });
  });

  return h('section', { class: 'appt-notes-section', 'aria-labelledby': 'appt-notes-title' },
    h('h3', { id: 'appt-notes-title' }, 'Notes'), list, form);
}

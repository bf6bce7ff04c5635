// Recording a vaccination with the species' protocol at hand: the protocol's vaccines offered
// as the vaccine's suggestions (GET /vaccination-protocols), and the next due date the protocol
// proposes for the dose (GET /patients/{id}/vaccinations/proposal) filled in and marked as
// proposed, for staff to keep or change. The intervals are the server's; none is kept here.

import * as api from '../api.js';
import { h, replace, uid, debounce, plainDate } from '../ui.js';

/** Protocols by species, read once a session. */
const protocols = new Map();

/** Wires the vaccination form's fields: `vaccine` (text), `given` and `due` (dates). Returns the
 *  line that says where the due date came from, to place under the due field. */
export function vaccineProposals(patient, { vaccine, given, due }) {
  const note = h('p', { class: 'hint proposal-note', id: uid('proposal'), 'aria-live': 'polite' });
  const list = h('datalist', { id: uid('vaccines') });
  vaccine.setAttribute('list', list.id);
  vaccine.setAttribute('autocomplete', 'off');
  vaccine.after(list);
  due.setAttribute('aria-describedby', [due.getAttribute('aria-describedby'), note.id].filter(Boolean).join(' '));

  const fill = (protocol) => replace(list, (protocol.vaccines || []).map((v) => h('option', { value: v.name }, `${v.name}${v.core ? ' (core)' : ''}`)));
  if (protocols.has(patient.species)) fill(protocols.get(patient.species));
  else {
    api.get('/vaccination-protocols', { species: patient.species }).then((protocol) => {
      protocols.set(patient.species, protocol);
      fill(protocol);
    }).catch(() => { /* no suggestions: the vaccine is typed */ });
  }

  // Whether the date shown is the proposal (then a new proposal replaces it) or was typed.
  let proposed = '';
  let asked = 0;
  const propose = debounce(async () => {
    const mine = ++asked;
    if (!vaccine.value.trim() || !given.value) { replace(note); return; }
    try {
      const answer = await api.get(`/patients/${encodeURIComponent(patient.id)}/vaccinations/proposal`,
        { vaccine: vaccine.value.trim(), administeredDate: given.value });
      if (mine !== asked) return;
      if (!answer.nextDueDate) {
        if (due.value === proposed) { due.value = ''; proposed = ''; }
        replace(note, answer.note || 'The protocol proposes no date for this vaccine: enter it if one is due.');
        return;
      }
      if (!due.value || due.value === proposed) { due.value = answer.nextDueDate; proposed = answer.nextDueDate; }
      replace(note, due.value === answer.nextDueDate
        ? `Proposed from ${answer.source || 'the protocol'}${answer.intervalDays ? ` (every ${answer.intervalDays} days${answer.primaryCourse ? ', primary course' : ''})` : ''}; change it if needed.`
        : `The protocol (${answer.source || 'the protocol'}) proposes ${plainDate(answer.nextDueDate)}; the date entered is kept.`);
      note.dataset.proposed = answer.nextDueDate;
    } catch {
      if (mine === asked) replace(note);
    }
  }, 300);
  vaccine.addEventListener('input', propose);
  vaccine.addEventListener('change', propose);
  given.addEventListener('change', propose);
  due.addEventListener('input', () => { if (due.value !== proposed) { proposed = ''; if (note.dataset.proposed) replace(note, `Changed from the proposed ${plainDate(note.dataset.proposed)}.`); } });
  return note;
}

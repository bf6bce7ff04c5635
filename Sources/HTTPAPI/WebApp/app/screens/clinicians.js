// Clinicians: a card per clinician with credentials, expertise and proficiency, species and
// limits; their weekly availability, breaks and time off, which an administrator edits; and
// the private calendar-feed link. An administrator adds a clinician, edits their expertise and
// limits (PATCH with If-Match), and retires one: the answer's appointments still to come are
// then listed, each with a way to it on the schedule to move it to another clinician.

import * as api from '../api.js';
import * as live from '../live.js';
import { h, replace, field, toast, words, hhmm, minutesOf, plainDate, today, uid, announce, date, time, isoDate, zonedParts } from '../ui.js';
import { act, loadInto, submitForm } from '../forms.js';
import { clinicianForm } from './clinician-form.js';

const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

export function render(container, { session }) {
  let alive = true;
  const canManage = session.can('manageSchedule');
  const list = h('ul', { class: 'card-grid' }, h('li', { class: 'muted' }, 'Loading…'));
  const outcome = h('div', { class: 'retire-outcome' });
  const addBox = h('div', { id: uid('add-clinician') });
  const addButton = canManage ? h('button', { type: 'button', class: 'button primary', 'aria-expanded': 'false', 'aria-controls': addBox.id }, 'Add a clinician') : null;
  addButton?.addEventListener('click', () => {
    if (addButton.getAttribute('aria-expanded') === 'true') { closeAdd(); return; }
    addButton.setAttribute('aria-expanded', 'true');
    const form = clinicianForm(null, {
      title: 'New clinician', submitLabel: 'Add the clinician',
      send: (body) => api.post('/specialists', body, { idempotencyKey: api.newKey() }),
      done: (created) => { closeAdd(); toast(`${created.displayName} added`, 'success'); announce(`${created.displayName} added`); load(); },
      cancel: closeAdd,
    });
    replace(addBox, h('section', { class: 'panel glass', 'aria-labelledby': form.titleId }, form.element));
    form.focus();
  });
  function closeAdd() { addButton.setAttribute('aria-expanded', 'false'); replace(addBox); addButton.focus(); }
  replace(container, h('section', { class: 'screen clinicians', 'aria-labelledby': 'clinicians-title' },
    h('header', { class: 'screen-header' }, h('h1', { id: 'clinicians-title' }, 'Clinicians'), addButton), addBox, outcome, list));

  const open = new Set(); // clinicians whose availability is shown, kept across reloads

  function load() {
    return loadInto(list, () => api.get('/specialists'), ({ items }) => replace(list, items.map(card)),
      { alive: () => alive, wrap: (message) => h('li', {}, message) });
  }

  function card(c) {
    const availabilityBox = h('div', { class: 'availability', id: `availability-${c.id}` });
    const toggle = h('button', { type: 'button', class: 'button', 'aria-expanded': 'false', 'aria-controls': availabilityBox.id }, 'Availability');
    const show = async () => {
      toggle.setAttribute('aria-expanded', 'true');
      toggle.textContent = 'Hide availability';
      open.add(c.id);
      await loadAvailability(c, availabilityBox);
    };
    toggle.addEventListener('click', () => {
      if (toggle.getAttribute('aria-expanded') === 'true') {
        toggle.setAttribute('aria-expanded', 'false'); toggle.textContent = 'Availability'; replace(availabilityBox); open.delete(c.id);
      } else show();
    });
    if (open.has(c.id)) show();
    const feed = canManage ? h('button', { type: 'button', class: 'button quiet' }, 'Calendar feed link') : null;
    const feedBox = h('div', { 'aria-live': 'polite' });
    feed?.addEventListener('click', () => act(feed, async () => {
      const { url } = await api.post(`/specialists/${c.id}/calendar-feed`);
      const absolute = new URL(url, window.location.origin).href;
      const input = h('input', { type: 'text', readonly: true, value: absolute });
      replace(feedBox, field('Private calendar link (shown once; anyone with it can read this calendar)', input, { wide: true }));
      input.select();
    }, { label: 'Issuing…', into: feedBox }));
    return h('li', { class: 'clinician glass' },
      h('h2', {}, c.displayName),
      h('p', { class: 'muted' }, c.credentials),
      h('ul', { class: 'plain expertise', 'aria-label': 'Expertise' }, c.expertise.map((e) => h('li', {},
        h('span', {}, words(e.specialty)),
        h('meter', { min: 0, max: 5, value: e.proficiency, 'aria-label': `${words(e.specialty)} proficiency` }),
        h('span', { class: 'muted' }, ` ${e.proficiency}/5 · ${e.years} years`)))),
      h('p', {}, h('span', { class: 'muted' }, 'Treats: '), c.species.map(words).join(', ')),
      h('p', { class: 'muted' }, `Up to ${c.maxAppointmentsPerDay} appointments a day · complexity up to ${c.complexityCeiling}`),
      h('div', { class: 'row wrap' }, toggle, feed,
        canManage ? h('button', { type: 'button', class: 'button', dataset: { action: 'edit-clinician' }, 'aria-label': `Edit ${c.displayName}`, on: { click: (e) => edit(c, e.currentTarget) } }, 'Edit') : null,
        canManage ? h('button', { type: 'button', class: 'button', dataset: { action: 'retire' }, 'aria-label': `Retire ${c.displayName}`, on: { click: (e) => retire(c, e.currentTarget) } }, 'Retire…') : null),
      feedBox, availabilityBox);
  }

  /** A modal dialog; focus goes back to `opener` when it closes. */
  function modal(opener, titleId) {
    const dialog = h('dialog', { class: 'dialog glass screen-dialog', 'aria-labelledby': titleId });
    dialog.addEventListener('close', () => { dialog.remove(); if (opener.isConnected) opener.focus(); });
    document.body.append(dialog);
    return { dialog, close: () => dialog.close() };
  }

  function edit(c, opener) {
    const form = clinicianForm(c, {
      title: `Edit ${c.displayName}`, submitLabel: 'Save',
      // Only what changed is sent, with the version it was changed from.
      send: (body) => api.patch(`/specialists/${c.id}`, body, { ifMatch: c.version }),
      done: (saved) => { close(); toast(`${saved.displayName} saved`, 'success'); load(); },
      cancel: () => close(),
      conflict: 'Someone else changed this clinician meanwhile; close and open it again to see the current details.',
    });
    const { dialog, close } = modal(opener, form.titleId);
    dialog.append(form.element);
    dialog.showModal();
    form.focus();
  }

  function retire(c, opener) {
    const titleId = uid('retire');
    const confirm = h('button', { type: 'button', class: 'button danger', dataset: { action: 'confirm-retire' } }, `Retire ${c.displayName}`);
    const status = h('div', { 'aria-live': 'polite' });
    const { dialog, close } = modal(opener, titleId);
    dialog.append(h('h2', { id: titleId }, `Retire ${c.displayName}?`),
      h('p', {}, 'They will no longer be offered or booked, and their calendar links stop working. Their past appointments keep their name. '
        + 'Their appointments still to come are kept, and listed here for you to move to another clinician.'),
      status,
      h('div', { class: 'row end' }, h('button', { type: 'button', class: 'button quiet', on: { click: () => close() } }, 'Keep'), confirm));
    confirm.addEventListener('click', () => act(confirm, async () => {
      const answer = await api.post(`/specialists/${c.id}/retire`, undefined, { ifMatch: c.version });
      close();
      await showRetired(answer);
      load();
    }, { label: 'Retiring…', into: status }));
    dialog.showModal();
    confirm.focus();
  }

  /** After a retirement: the appointments still to come on the clinician's name. */
  async function showRetired({ specialist, appointmentsToReplan: due }) {
    const headingId = uid('retired');
    const rows = h('tbody', {});
    replace(outcome, h('section', { class: 'panel glass retired-panel', 'aria-labelledby': headingId },
      h('h2', { id: headingId, tabindex: '-1' }, `${specialist.displayName} retired`),
      due.length ? [
        h('p', {}, `${due.length} appointment${due.length === 1 ? '' : 's'} still to come need${due.length === 1 ? 's' : ''} another clinician. Open each on the schedule to move it.`),
        h('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': 'Appointments to re-plan' },
          h('table', { class: 'data-table replan-table' },
            h('thead', {}, h('tr', {}, ['Patient', 'When', 'Type', ''].map((t) => h('th', { scope: 'col' }, t)))), rows))]
        : h('p', {}, 'No appointment still to come was on their name.'),
      h('button', { type: 'button', class: 'button quiet', on: { click: () => replace(outcome) } }, 'Dismiss')));
    outcome.querySelector('h2').focus();
    announce(`${specialist.displayName} retired; ${due.length} appointments to re-plan`);
    if (!due.length) return;
    const [types, patients] = await Promise.all([
      api.get('/appointment-types').then((t) => t.items).catch(() => []),
      Promise.all(due.map((a) => api.get(`/patients/${a.patientId}`).catch(() => null))),
    ]);
    replace(rows, due.map((a, i) => {
      const p = patients[i];
      const day = isoDate(zonedParts(a.start));
      return h('tr', { dataset: { appointment: a.id } },
        h('th', { scope: 'row' }, p ? `${p.name} (${words(p.species)})` : 'Patient'),
        h('td', {}, `${date(a.start)}, ${time(a.start)}–${time(a.end)}`),
        h('td', {}, types.find((t) => t.id === a.appointmentTypeId)?.name || 'Appointment'),
        h('td', {}, h('a', { class: 'button', href: `#/schedule?date=${day}&appointment=${a.id}`, 'aria-label': `Re-plan ${p?.name || 'the appointment'} on the schedule` }, 'Re-plan on the schedule')));
    }));
  }

  function loadAvailability(c, box) {
    replace(box, h('p', { class: 'muted' }, 'Loading…'));
    return loadInto(box, () => api.request('GET', `/specialists/${c.id}/availability`),
      ({ data, etag }) => drawAvailability(c, box, data, etag), { alive: () => alive });
  }

  function drawAvailability(c, box, availability, etag) {
    const byDay = (entries, weekday) => entries.filter((e) => e.weekday === weekday).map((e) => `${hhmm(e.startMinute)}–${hhmm(e.endMinute)}`).join(', ');
    const upcoming = (availability.timeOff || []).filter((t) => t.lastDay >= today());
    const table = h('table', { class: 'week-table' },
      h('caption', {}, `${c.displayName}: weekly hours`),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Day'), h('th', { scope: 'col' }, 'Working'), h('th', { scope: 'col' }, 'Breaks'))),
      h('tbody', {}, DAYS.map((name, i) => h('tr', {}, h('th', { scope: 'row' }, name),
        h('td', {}, byDay(availability.weekly || [], i + 1) || '—'), h('td', {}, byDay(availability.breaks || [], i + 1) || '—')))));
    const timeOffList = h('ul', { class: 'plain entries' }, upcoming.length ? upcoming.map((t) => h('li', { class: 'row spread' },
      h('span', {}, `${plainDate(t.firstDay)} – ${plainDate(t.lastDay)}${t.reason ? ` · ${t.reason}` : ''}`),
      canManage ? h('button', {
        type: 'button', class: 'button quiet', 'aria-label': `Remove time off from ${plainDate(t.firstDay)}`,
        on: { click: (event) => save(event.currentTarget, { ...availability, timeOff: availability.timeOff.filter((x) => x !== t) }, 'Time off removed') },
      }, 'Remove') : null)) : h('li', { class: 'muted' }, 'No time off ahead.'));

    let form = null;
    if (canManage) {
      const first = h('input', { type: 'date', value: today() });
      const last = h('input', { type: 'date', value: today() });
      const reason = h('input', { type: 'text', maxlength: 200 });
      form = h('form', { class: 'stack-form', novalidate: true },
        h('h3', {}, 'Add time off'),
        h('div', { class: 'grid-fields' }, field('First day', first, { fieldName: 'timeOff.firstDay' }), field('Last day', last, { fieldName: 'timeOff.lastDay' }),
          field('Reason', reason, { fieldName: 'timeOff.reason' })),
        h('div', { class: 'form-errors', role: 'alert', hidden: true }),
        h('button', { type: 'submit', class: 'button' }, 'Add time off'));
      form.addEventListener('submit', (event) => {
        event.preventDefault();
        const entry = { firstDay: first.value, lastDay: last.value };
        if (reason.value.trim()) entry.reason = reason.value.trim();
        save(form.querySelector('button'), { ...availability, timeOff: [...(availability.timeOff || []), entry] }, 'Time off added', form);
      });
    }

    /** Sends the whole availability with `next`'s change, from `button`: in `inForm`, whose
     *  fields and message box then show what the API refused; else a toast says it. */
    async function save(button, next, done, inForm) {
      const send = async () => {
        const { data, etag: fresh } = await api.request('PUT', `/specialists/${c.id}/availability`, { body: next, ifMatch: etag });
        toast(done, 'success');
        drawAvailability(c, box, data, fresh);
      };
      const handle = (error) => {
        if (error.status !== 412) return false;
        toast('Someone else changed this availability; here is the current one.', 'error');
        loadAvailability(c, box);
        return true;
      };
      if (!inForm) { await act(button, send, { label: 'Saving…', handle }); return; }
      await submitForm(inForm, button, send, {
        label: 'Saving…', handle,
        // The API names the entry (timeOff[3].lastDay); the form has one entry.
        fields: (errors) => errors.map((e) => ({ ...e, field: e.field.replace(/^timeOff\[\d+\]/, 'timeOff') })),
      });
    }

    replace(box, table,
      availability.maxBookedMinutesPerDay ? h('p', { class: 'muted' }, `At most ${availability.maxBookedMinutesPerDay} booked minutes a day.`) : null,
      canManage ? weekEditor() : null,
      h('h3', {}, 'Time off'), timeOffList, form);

    /** Working hours and one break per day, edited in place (a day with several sessions is
     *  edited by replacing them with one). */
    function weekEditor() {
      const first = (list, weekday) => list.find((e) => e.weekday === weekday);
      const rows = DAYS.map((name, i) => {
        const work = first(availability.weekly || [], i + 1);
        const pause = first(availability.breaks || [], i + 1);
        const input = (minutes, label) => h('input', { type: 'time', step: 300, value: minutes === undefined ? '' : hhmm(minutes), 'aria-label': `${name} ${label}` });
        return { weekday: i + 1, name, start: input(work?.startMinute, 'starts'), end: input(work?.endMinute, 'ends'),
          breakStart: input(pause?.startMinute, 'break starts'), breakEnd: input(pause?.endMinute, 'break ends') };
      });
      const errors = h('div', { class: 'form-errors', role: 'alert', hidden: true });
      const submit = h('button', { type: 'submit', class: 'button' }, 'Save weekly hours');
      const editor = h('form', { class: 'stack-form', novalidate: true },
        h('table', { class: 'week-table' },
          h('caption', {}, 'Edit weekly hours (leave a day empty when not working)'),
          h('thead', {}, h('tr', {}, ['Day', 'Starts', 'Ends', 'Break from', 'Break to'].map((x) => h('th', { scope: 'col' }, x)))),
          h('tbody', {}, rows.map((r) => h('tr', {}, h('th', { scope: 'row' }, r.name), h('td', {}, r.start), h('td', {}, r.end), h('td', {}, r.breakStart), h('td', {}, r.breakEnd))))),
        errors, submit);
      editor.addEventListener('submit', (event) => {
        event.preventDefault();
        const weekly = [];
        const breaks = [];
        const problems = [];
        for (const r of rows) {
          const pair = (a, b, what) => {
            if (!a.value && !b.value) return null;
            if (!a.value || !b.value || minutesOf(a.value) >= minutesOf(b.value)) { problems.push(`${r.name}: the ${what} needs a start before its end`); return null; }
            return { weekday: r.weekday, startMinute: minutesOf(a.value), endMinute: minutesOf(b.value) };
          };
          const work = pair(r.start, r.end, 'working time');
          const pause = pair(r.breakStart, r.breakEnd, 'break');
          if (work) weekly.push(work);
          if (pause) breaks.push(pause);
        }
        if (problems.length) { errors.hidden = false; replace(errors, h('ul', {}, problems.map((x) => h('li', {}, x)))); return; }
        save(submit, { ...availability, weekly, breaks }, 'Weekly hours saved', editor);
      });
      return h('details', { class: 'add-entry', id: uid('week') }, h('summary', {}, 'Edit weekly hours and breaks'), editor);
    }
  }

  const unsubscribe = live.subscribe(['clinician.availability_changed'], () => load());
  load();
  return () => { alive = false; unsubscribe(); };
}

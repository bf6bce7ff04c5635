// Clinicians: a card per clinician with credentials, expertise and proficiency, species and
// limits; their weekly availability, breaks and time off, which an administrator edits; and
// the private calendar-feed link.

import * as api from '../api.js';
import * as live from '../live.js';
import { h, replace, field, toast, words, hhmm, minutesOf, plainDate, today, uid } from '../ui.js';
import { act, loadInto, submitForm } from '../forms.js';

const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

export function render(container, { session }) {
  let alive = true;
  const canManage = session.can('manageSchedule');
  const list = h('ul', { class: 'card-grid' }, h('li', { class: 'muted' }, 'Loading…'));
  replace(container, h('section', { class: 'screen clinicians', 'aria-labelledby': 'clinicians-title' },
    h('header', { class: 'screen-header' }, h('h1', { id: 'clinicians-title' }, 'Clinicians')), list));

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
      h('div', { class: 'row wrap' }, toggle, feed), feedBox, availabilityBox);
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

// The schedule: a day with a column per clinician or per room, or a week of one clinician or
// one room; appointments coloured by type or by urgency, free time visible. Tap an
// appointment to check in, start, complete, cancel, mark a no-show or move it (a form, or a
// free slot tapped on the grid); drag it to move it. A move onto a taken time is refused by
// the server and its nearest free alternatives are offered instead; nothing here decides
// whether a time is free. Changes made anywhere arrive through the live stream.
//
// This screen holds what was loaded and puts the parts together: the options bar
// (schedule-toolbar.js), the days shown (schedule-days.js), the columns worked out from the
// data (schedule-columns.js) drawn as a time grid (schedule-grid.js) of appointment cards
// (schedule-card.js) with a legend and summary below (schedule-legend.js), the names, triage
// and free time fetched (schedule-data.js), moving (schedule-moves.js, schedule-drag.js) and
// the dialogs (schedule-dialogs.js).

import * as api from '../api.js';
import * as live from '../live.js';
import { h, replace, date, today, zonedInstant, rfc3339, problemText, words } from '../ui.js';
import { loadInto } from '../forms.js';
import { openAppointment, openReplan, chooseInRange } from './schedule-dialogs.js';
import { enableDrag } from './schedule-drag.js';
import { scheduleToolbar } from './schedule-toolbar.js';
import { days, range, weekTitle } from './schedule-days.js';
import { columns, weekOf } from './schedule-columns.js';
import { drawGrid, REM_PER_MINUTE } from './schedule-grid.js';
import { appointmentCard, urgencyBadge, markNotes } from './schedule-card.js';
import { drawLegend, drawSummary } from './schedule-legend.js';
import { freeSlots, loadNames, loadUrgency, patientName } from './schedule-data.js';
import { scheduleMoves } from './schedule-moves.js';
import { pendingPanel } from '../offline/outbox.js';
import { loadCounts, noteCount, forgetCounts } from './schedule-notes.js';

export function render(container, { session, query }) {
  let alive = true;
  const view = {
    day: /^\d{4}-\d{2}-\d{2}$/.test(query.date || '') ? query.date : today(),
    span: query.view === 'week' ? 'week' : 'day',
    by: query.by === 'room' ? 'room' : 'clinician',
    who: query.who || '',
    colour: query.colour === 'urgency' ? 'urgency' : 'type',
  };
  /** What was loaded; `moving`: an appointment being moved by tapping a free slot. */
  const state = { view, clinicians: [], types: [], rooms: [], appointments: [], slots: [], moving: null };
  let loadToken = 0;

  const names = {
    type: (id) => state.types.find((t) => t.id === id)?.name || 'Appointment',
    typeIndex: (id) => { const index = state.types.findIndex((t) => t.id === id); return index < 0 ? 0 : index % 12; },
    clinician: (id) => state.clinicians.find((c) => c.id === id)?.displayName || 'Clinician',
    room: (id) => state.rooms.find((r) => r.id === id)?.name || 'Room',
  };

  const toolbar = scheduleToolbar(view, { changed: update, typeChanged: () => loadSlots().then(draw) });
  const title = h('p', { class: 'schedule-date' });
  const moveBanner = h('div', { class: 'move-banner glass', role: 'status', hidden: true });
  // Booking for a patient chosen on their record (#/schedule?patient=<id>): free times book them.
  const bookBanner = h('div', { class: 'move-banner glass book-banner', role: 'status', hidden: true });
  let bookFor = null;
  const message = h('div');
  // A scrolling region of its own, named (a name needs a role to be given to).
  const grid = h('div', { class: 'schedule-scroll', tabindex: '0', role: 'region', 'aria-label': 'Schedule' });
  const legend = h('div', { class: 'schedule-legend' });
  const extra = h('div', { class: 'schedule-extra' });

  replace(container, h('section', { class: 'screen schedule', 'aria-labelledby': 'schedule-title' },
    h('header', { class: 'screen-header' },
      h('h1', { id: 'schedule-title' }, 'Schedule'),
      title,
      session.can('optimizeSchedule') ? h('div', { class: 'toolbar' },
        h('button', { type: 'button', class: 'button', on: { click: () => openReplan(ctx, view.day) } }, 'Re-plan an absence…'),
        h('a', { class: 'button', href: '#/schedule/plan' }, 'Plan open requests')) : null),
    toolbar.element,
    pendingPanel((e) => /^\/appointments\/[^/]+\/transitions$/.test(e.path), 'Appointment changes waiting to send'),
    bookBanner, moveBanner, message, grid, legend, extra));

  // The screen's context for its dialogs.
  const ctx = {
    session,
    clinicians: () => active(),
    moving: () => state.moving,
    patientName,
    clinicianName: names.clinician,
    typeName: names.type,
    roomName: names.room,
    urgencyBadge,
    loadNames,
    transition,
    reload: () => load(),
    startMoving: (appointment) => moves.start(appointment),
    bookFor: () => bookFor,
    booked: () => stopBooking(),
    notesChanged: () => markAllNotes(),
  };

  /** The clinicians who can be booked (a retired one keeps a column only for the appointments
   *  still on their name, until they are moved). */
  function active() { return state.clinicians.filter((c) => !c.retiredAt); }
  // An appointment to show at once (#/schedule?appointment=<id>, from a list elsewhere).
  let openOnLoad = query.appointment || null;

  function stopBooking() {
    bookFor = null;
    bookBanner.hidden = true;
    const params = new URLSearchParams(window.location.hash.split('?')[1] || '');
    if (params.has('patient')) { params.delete('patient'); history.replaceState(null, '', `#/schedule?${params}`); }
  }

  async function startBooking(patientId) {
    try {
      const patient = await api.get(`/patients/${encodeURIComponent(patientId)}`);
      const owner = await api.get(`/owners/${encodeURIComponent(patient.ownerId)}`).catch(() => null);
      if (!alive) return;
      bookFor = { patient, ownerName: owner ? `${owner.firstName} ${owner.lastName}` : '' };
      replace(bookBanner, `Booking for ${patient.name} (${words(patient.species)}): tap a free time. `,
        h('button', { type: 'button', class: 'button', on: { click: stopBooking } }, 'Stop booking'));
      bookBanner.hidden = false;
    } catch (error) {
      if (alive) replace(message, h('p', { class: 'notice notice-error', role: 'alert' }, problemText(error)));
    }
  }

  const moves = scheduleMoves(state, {
    ctx,
    banner: moveBanner,
    grid,
    transition,
    reload: () => load(),
    refreshFree: () => loadSlots().then(draw),
    showClinicians: () => { if (view.by === 'room') { view.by = 'clinician'; update(); } },
    typeId: toolbar.typeId,
    clinicianName: names.clinician,
  });

  /** After a change of day or view: the address, the controls, then the data. */
  function update() {
    const params = new URLSearchParams({ date: view.day });
    if (view.span === 'week') params.set('view', 'week');
    if (view.by === 'room') params.set('by', 'room');
    if (view.span === 'week' && view.who) params.set('who', view.who);
    if (view.colour === 'urgency') params.set('colour', 'urgency');
    if (bookFor) params.set('patient', bookFor.patient.id);
    history.replaceState(null, '', `#/schedule?${params}`);
    const week = view.span === 'week';
    let choices = [];
    if (week) {
      choices = view.by === 'room' ? state.rooms.map((r) => [r.id, r.name]) : active().map((c) => [c.id, c.displayName]);
      if (!choices.some(([id]) => id === view.who)) view.who = defaultWho();
    }
    toolbar.refresh(choices);
    grid.setAttribute('aria-label', week ? `Week of ${weekOf(state)?.name || ''}` : `Day schedule by ${view.by}`);
    load();
  }

  function defaultWho() {
    if (view.by === 'room') return state.rooms[0]?.id || '';
    // A clinician's account and clinician profile share the display name in this API.
    return (active().find((c) => c.displayName === session.user.displayName) || active()[0])?.id || '';
  }

  /** The clinicians, appointment types and rooms, then the view. */
  function start() {
    return loadInto(message, () => Promise.all([api.get('/specialists', { includeRetired: true }), api.get('/appointment-types'), api.get('/rooms')]),
      ([specialists, typeList, roomList]) => {
        state.clinicians = specialists.items;
        state.types = typeList.items;
        state.rooms = roomList.items.filter((r) => r.active);
        toolbar.setTypes(state.types);
        update();
      }, { alive: () => alive });
  }

  /** The appointments of the days shown, with their free time, patients' names and (coloured
   *  by urgency) triage; a newer load wins. A failure keeps what was last drawn. */
  function load() {
    const token = ++loadToken;
    const current = () => alive && token === loadToken;
    const { from, to } = range(view);
    const shown = days(view);
    title.textContent = view.span === 'day' ? date(zonedInstant(view.day, 12 * 60)) : weekTitle(shown[0], shown[6]);
    const clinicianId = view.span === 'week' && view.by === 'clinician' ? view.who : undefined;
    return loadInto(message, async () => {
      const [list] = await Promise.all([api.get('/appointments', { from: rfc3339(from), to: rfc3339(to), clinicianId }), loadSlots()]);
      if (!current()) return;
      state.appointments = list.items;
      await Promise.all([loadNames(state.appointments), view.colour === 'urgency' ? loadUrgency(state.appointments) : null]);
    }, () => {
      replace(message);
      draw();
      const wanted = openOnLoad && state.appointments.find((a) => a.id === openOnLoad);
      openOnLoad = null;
      if (wanted) {
        grid.querySelector(`[data-appointment="${wanted.id}"]`)?.scrollIntoView({ block: 'center' });
        openAppointment(ctx, wanted);
      }
      // The notes' markers follow the appointments (a count is a help, drawn when read).
      loadCounts(state.appointments.filter((a) => noteCount(a.id) === undefined)).then(() => { if (current()) markAllNotes(); });
    }, { alive: current, message: (error) => `${problemText(error)} The schedule shows what was last known.` });
  }

  /** The free time shown: for the appointment being moved, or for the type chosen; none by room. */
  async function loadSlots() {
    const { moving } = state;
    const typeId = moving ? moving.appointmentTypeId : toolbar.typeId();
    if (!typeId || view.by === 'room') { state.slots = []; return; }
    const { from, to } = range(view);
    state.slots = await freeSlots({
      from, to, appointmentTypeId: typeId,
      clinicianId: view.span === 'week' ? view.who : undefined,
      durationMinutes: moving ? Math.round((Date.parse(moving.end) - Date.parse(moving.start)) / 60000) : undefined,
    });
  }

  /** The notes' marks on the cards drawn, in place (a card under a finger stays the same). */
  function markAllNotes() {
    grid.querySelectorAll('.appointment[data-appointment]').forEach((b) => markNotes(b, noteCount(b.dataset.appointment)));
  }

  function draw() {
    const list = columns(state, session.practice);
    drawGrid(grid, {
      view, list, shown: days(view), practice: session.practice, moving: state.moving,
      card: (a) => appointmentCard(a, { view, names, moving: state.moving, notes: noteCount(a.id), open: (x) => openAppointment(ctx, x) }),
      freeChosen: (freeRange) => chooseInRange(ctx, freeRange, moves.freeChosen),
    });
    drawLegend(legend, { view, list, names });
    drawSummary(extra, { view, list, appointments: state.appointments, practice: session.practice, moving: state.moving, typeId: toolbar.typeId(), names });
  }

  /** Appointments changed from this screen, until when: their events, a moment later, are
   *  the echo of a change already shown and need no second reload. */
  const ownChanges = new Map();
  const ownEcho = (e) => e.actorId === session.user.id && (ownChanges.get(e.resourceId) || 0) > Date.now();

  async function transition(appointment, body) {
    // Offline, a check-in, start or completion waits in the outbox (listed above the schedule).
    const updated = await api.post(`/appointments/${appointment.id}/transitions`, body, { ifMatch: appointment.version, queue: { subject: patientName(appointment.patientId) } });
    ownChanges.set(appointment.id, Date.now() + 5000);
    await load();
    return updated;
  }

  const stopDrag = enableDrag(grid, { remPerMinute: REM_PER_MINUTE, accepts: moves.accepts, drop: moves.dropped });
  const onKey = (event) => { if (event.key === 'Escape' && state.moving) moves.stop(); };
  document.addEventListener('keydown', onKey);
  const unsubscribe = live.subscribe(['appointment.*', 'schedule.*', 'clinician.availability_changed', 'patient.triaged'], (all) => {
    const events = all.filter((e) => !ownEcho(e));
    // An event may name the appointment in capitals: ids are compared in lower case.
    forgetCounts(all.filter((e) => e.kind.startsWith('appointment.')).map((e) => String(e.payload?.appointmentID || e.resourceId || '').toLowerCase()));
    if (view.colour === 'urgency' && events.some((e) => e.kind === 'patient.triaged' || e.kind === 'reset')) {
      loadUrgency(state.appointments, true).then(() => load());
    } else if (events.some((e) => e.kind !== 'patient.triaged')) load();
  });
  start();
  if (query.patient) startBooking(query.patient);

  return () => {
    alive = false;
    unsubscribe();
    stopDrag();
    document.removeEventListener('keydown', onKey);
    document.querySelectorAll('dialog.screen-dialog').forEach((d) => d.remove());
  };
}

// The schedule: a day with a column per clinician or per room, or a week of one clinician or
// one room; appointments coloured by type or by urgency, free time visible. Tap an
// appointment to check in, start, complete, cancel, mark a no-show or move it (a form, or a
// free slot tapped on the grid); drag it to move it. A move onto a taken time is refused by
// the server and its nearest free alternatives are offered instead; nothing here decides
// whether a time is free. Changes made anywhere arrive through the live stream.

import * as api from '../api.js';
import * as live from '../live.js';
import {
  h, replace, field, select, notice, announce, toast, words, time, date, today, addDays, weekday, zonedInstant,
  minutesOf, rfc3339, levelBadge, levelColour, levelLabel, levelWords, plainDate,
} from '../ui.js';
import * as catalogue from '../catalogue.js';
import { STATUS, openAppointment, chooseInRange, openBooking, openReplan } from './schedule-dialogs.js';
import { enableDrag } from './schedule-drag.js';

const REM_PER_MINUTE = 0.2; // 15 minutes = 3 rem, taller than a 44 px touch target
const SLOT_PAGE = 500;
const ROOM_TYPES = { exam: 'Consulting', surgery: 'Theatre', dental: 'Dental', imaging: 'Imaging', isolation: 'Isolation' };

/** Patient names by id, kept across visits: the appointment list carries ids only. */
const patientNames = new Map();
/** Each patient's recent triage assessments (newest first), for colouring by urgency. */
const assessments = new Map();

export function render(container, { session, query }) {
  let alive = true;
  const view = {
    day: /^\d{4}-\d{2}-\d{2}$/.test(query.date || '') ? query.date : today(),
    span: query.view === 'week' ? 'week' : 'day',
    by: query.by === 'room' ? 'room' : 'clinician',
    who: query.who || '',
    colour: query.colour === 'urgency' ? 'urgency' : 'type',
  };
  let clinicians = [];
  let types = [];
  let rooms = [];
  let appointments = [];
  let slots = [];
  let moving = null; // an appointment being moved by tapping a free slot
  let loadToken = 0;

  const dateInput = h('input', { type: 'date', value: view.day, 'aria-label': 'Day' });
  const typeSelect = select([], { 'aria-label': 'Free slots for' });
  const whoSelect = select([]);
  const whoField = field('Whose week', whoSelect);
  const freeField = field('Free for', typeSelect);
  const title = h('p', { class: 'schedule-date' });
  const previous = h('button', { type: 'button', class: 'button', on: { click: () => setDay(addDays(view.day, view.span === 'week' ? -7 : -1)) } });
  const next = h('button', { type: 'button', class: 'button', on: { click: () => setDay(addDays(view.day, view.span === 'week' ? 7 : 1)) } });
  const current = h('button', { type: 'button', class: 'button', on: { click: () => setDay(today()) } });
  const spanButtons = toggle('Show', [['day', 'Day'], ['week', 'Week']], () => view.span, (value) => { view.span = value; update(); });
  const byButtons = toggle('Columns', [['clinician', 'Clinicians'], ['room', 'Rooms']], () => view.by, (value) => { view.by = value; view.who = ''; update(); });
  const colourButtons = toggle('Colour by', [['type', 'Type'], ['urgency', 'Urgency']], () => view.colour, (value) => { view.colour = value; update(); });
  const moveBanner = h('div', { class: 'move-banner glass', role: 'status', hidden: true });
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
    h('div', { class: 'toolbar schedule-options' },
      h('div', { class: 'toolbar', role: 'group', 'aria-label': 'Choose the day or week' }, previous, current, next, dateInput),
      spanButtons, byButtons, whoField,
      h('div', { class: 'field' }, h('span', { class: 'toolbar-label', 'aria-hidden': 'true' }, 'Colour'), colourButtons),
      freeField),
    moveBanner, message, grid, legend, extra));

  dateInput.addEventListener('change', () => { if (dateInput.value) setDay(dateInput.value); });
  typeSelect.addEventListener('change', () => loadSlots().then(draw));
  whoSelect.addEventListener('change', () => { view.who = whoSelect.value; update(); });

  /** A group of buttons, one pressed. */
  function toggle(label, options, value, choose) {
    const group = h('div', { class: 'segmented', role: 'group', 'aria-label': label });
    group.refresh = () => group.querySelectorAll('button').forEach((b) => b.setAttribute('aria-pressed', String(b.dataset.value === value())));
    for (const [key, text] of options) {
      group.append(h('button', { type: 'button', class: 'button', dataset: { value: key }, on: { click: () => { if (value() !== key) choose(key); } } }, text));
    }
    group.refresh();
    return group;
  }

  // The screen's context for its dialogs.
  const ctx = {
    session,
    clinicians: () => clinicians,
    moving: () => moving,
    patientName: (id) => patientNames.get(id),
    clinicianName, typeName, roomName, urgencyBadge, loadNames, transition,
    reload: () => load(),
    startMoving,
  };

  function setDay(nextDay) {
    view.day = nextDay;
    update();
  }

  /** After a change of day or view: the address, the controls, then the data. */
  function update() {
    dateInput.value = view.day;
    const params = new URLSearchParams({ date: view.day });
    if (view.span === 'week') params.set('view', 'week');
    if (view.by === 'room') params.set('by', 'room');
    if (view.span === 'week' && view.who) params.set('who', view.who);
    if (view.colour === 'urgency') params.set('colour', 'urgency');
    history.replaceState(null, '', `#/schedule?${params}`);
    const week = view.span === 'week';
    replace(previous, h('span', { 'aria-hidden': 'true' }, '‹ '), 'Previous');
    previous.setAttribute('aria-label', week ? 'Previous week' : 'Previous day');
    replace(next, 'Next', h('span', { 'aria-hidden': 'true' }, ' ›'));
    next.setAttribute('aria-label', week ? 'Next week' : 'Next day');
    current.textContent = week ? 'This week' : 'Today';
    spanButtons.refresh();
    byButtons.refresh();
    colourButtons.refresh();
    whoField.hidden = !week;
    freeField.hidden = view.by === 'room'; // rooms show their free time whatever the type
    if (week) {
      const list = view.by === 'room' ? rooms.map((r) => [r.id, r.name]) : clinicians.map((c) => [c.id, c.displayName]);
      if (!list.some(([id]) => id === view.who)) view.who = defaultWho();
      replace(whoSelect, list.map(([id, name]) => h('option', { value: id }, name)));
      whoSelect.value = view.who;
      whoField.querySelector('label').textContent = view.by === 'room' ? 'Room' : 'Clinician';
    }
    grid.setAttribute('aria-label', week ? `Week of ${who()?.name || ''}` : `Day schedule by ${view.by}`);
    load();
  }

  function defaultWho() {
    if (view.by === 'room') return rooms[0]?.id || '';
    // A clinician's account and clinician profile share the display name in this API.
    return (clinicians.find((c) => c.displayName === session.user.displayName) || clinicians[0])?.id || '';
  }

  function who() {
    if (view.by === 'room') { const r = rooms.find((x) => x.id === view.who); return r && { id: r.id, name: r.name }; }
    const c = clinicians.find((x) => x.id === view.who);
    return c && { id: c.id, name: c.displayName };
  }

  async function start() {
    try {
      const [specialists, typeList, roomList] = await Promise.all([api.get('/specialists'), api.get('/appointment-types'), api.get('/rooms')]);
      if (!alive) return;
      clinicians = specialists.items;
      types = typeList.items;
      rooms = roomList.items.filter((r) => r.active);
      replace(typeSelect, types.map((t) => h('option', { value: t.id }, `${t.name} (${t.defaultDurationMinutes} min)`)));
      typeSelect.value = (types.find((t) => t.name === 'Consultation') || types.find((t) => !t.requiredSpecialty) || types[0])?.id || '';
      update();
    } catch (error) {
      replace(message, notice(error.message));
    }
  }

  /** The days shown: one, or Monday to Sunday of the day's week. */
  function days() {
    if (view.span === 'day') return [view.day];
    const monday = addDays(view.day, 1 - weekday(view.day));
    return [0, 1, 2, 3, 4, 5, 6].map((i) => addDays(monday, i));
  }

  function range() {
    const shown = days();
    return { from: zonedInstant(shown[0], 0), to: zonedInstant(addDays(shown[shown.length - 1], 1), 0) };
  }

  async function load() {
    const token = ++loadToken;
    const { from, to } = range();
    const shown = days();
    title.textContent = view.span === 'day' ? date(zonedInstant(view.day, 12 * 60))
      : weekTitle(shown[0], shown[6]);
    try {
      const clinicianId = view.span === 'week' && view.by === 'clinician' ? view.who : undefined;
      const [list] = await Promise.all([api.get('/appointments', { from: rfc3339(from), to: rfc3339(to), clinicianId }), loadSlots()]);
      if (!alive || token !== loadToken) return;
      appointments = list.items;
      await Promise.all([loadNames(appointments), view.colour === 'urgency' ? loadUrgency(appointments) : null]);
      if (!alive || token !== loadToken) return;
      replace(message);
      draw();
    } catch (error) {
      if (!alive || token !== loadToken) return;
      replace(message, notice(`${error.message} The schedule shows what was last known.`));
    }
  }

  /** Free start times, page by page (the answer stops at 500 starts, and a day of eight
   *  clinicians on a 5-minute grid has more). */
  async function loadSlots() {
    const { from, to } = range();
    const typeId = moving ? moving.appointmentTypeId : typeSelect.value;
    if (!typeId || view.by === 'room') { slots = []; return; }
    const duration = moving ? Math.round((Date.parse(moving.end) - Date.parse(moving.start)) / 60000) : undefined;
    const clinicianId = view.span === 'week' ? view.who : undefined;
    const found = [];
    let after = Math.max(from.getTime(), Date.now());
    try {
      for (let page = 0; page < 10 && after < to.getTime(); page += 1) {
        const answer = await api.get('/appointments/slots', { from: rfc3339(after), to: rfc3339(to), appointmentTypeId: typeId, clinicianId, durationMinutes: duration, limit: SLOT_PAGE });
        found.push(...answer.items);
        if (answer.items.length < SLOT_PAGE) break;
        after = Date.parse(answer.items[answer.items.length - 1].start) + 60000;
      }
    } catch { /* free time is a help; the appointments still show */ }
    // One free block per gap: a slot that overlaps the previous one shown for the clinician is left out.
    const shown = new Map();
    slots = [];
    for (const slot of found.sort((a, b) => a.start.localeCompare(b.start))) {
      const lastEnd = shown.get(slot.clinicianId);
      if (lastEnd && Date.parse(slot.start) < lastEnd) continue;
      shown.set(slot.clinicianId, Date.parse(slot.end));
      slots.push(slot);
    }
  }

  async function loadNames(list) {
    const missing = [...new Set(list.map((a) => a.patientId))].filter((id) => !patientNames.has(id));
    await Promise.all(missing.map(async (id) => {
      try { const p = await api.get(`/patients/${id}`); patientNames.set(id, `${p.name} (${words(p.species)})`); } catch { patientNames.set(id, 'Patient'); }
    }));
  }

  /** Appointments carry no triage level: the urgency shown is the patient's triage made in
   *  the 24 hours before the appointment (or during it), from the patient's triage history. */
  async function loadUrgency(list, refresh = false) {
    const ids = [...new Set(list.map((a) => a.patientId))].filter((id) => refresh || !assessments.has(id));
    await Promise.all(ids.map(async (id) => {
      try { assessments.set(id, (await api.get(`/patients/${id}/assessments`, { limit: 10 })).items); } catch { assessments.set(id, []); }
    }));
  }

  function urgencyOf(appointment) {
    const start = Date.parse(appointment.start);
    const found = (assessments.get(appointment.patientId) || []).find((x) => {
      const at = Date.parse(x.assessedAt || x.arrivalTime);
      return at <= Date.parse(appointment.end) && at >= start - 24 * 3600000;
    });
    return found ? found.level : null;
  }

  function urgencyBadge(appointment) {
    if (!assessments.has(appointment.patientId)) return null;
    const level = urgencyOf(appointment);
    return level ? levelBadge(level) : h('span', { class: 'muted' }, 'Not triaged in the day before');
  }

  function typeName(id) { return types.find((t) => t.id === id)?.name || 'Appointment'; }
  function typeIndex(id) { const index = types.findIndex((t) => t.id === id); return index < 0 ? 0 : index % 12; }
  function clinicianName(id) { return clinicians.find((c) => c.id === id)?.displayName || 'Clinician'; }
  function roomName(id) { return rooms.find((r) => r.id === id)?.name || 'Room'; }
  function colourClass(a) {
    if (view.colour === 'type') return `type-${typeIndex(a.appointmentTypeId)}`;
    const level = urgencyOf(a);
    return level ? `urgency-${levelColour(level)}` : 'urgency-none';
  }

  // MARK: - Drawing

  /** The columns of the current view: {key, heading, sub, day, items, free, bookable, drop}. */
  function columns() {
    const visible = appointments.filter((a) => a.status !== 'cancelled' && a.status !== 'no_show');
    if (view.span === 'day') {
      if (view.by === 'clinician') {
        return clinicians.map((c) => ({
          key: c.id, heading: c.displayName, day: view.day, items: visible.filter((a) => a.clinicianId === c.id),
          free: freeRanges(slots.filter((s) => s.clinicianId === c.id)), bookable: true, drop: { clinician: c.id, label: c.displayName },
        }));
      }
      const list = rooms.map((r) => ({
        key: r.id, heading: r.name, sub: ROOM_TYPES[r.type] || words(r.type), day: view.day, items: visible.filter((a) => a.roomId === r.id),
        room: r.id, drop: { room: r.id, label: r.name },
      }));
      const roomless = visible.filter((a) => !a.roomId || !rooms.some((r) => r.id === a.roomId));
      if (roomless.length) list.push({ key: 'none', heading: 'No room', day: view.day, items: roomless, drop: { room: 'none', label: '' } });
      for (const column of list) column.free = column.room ? roomFree(column.items, view.day) : [];
      return list;
    }
    const chosen = who();
    return days().map((d) => {
      const [from, to] = [zonedInstant(d, 0).getTime(), zonedInstant(addDays(d, 1), 0).getTime()];
      const onDay = (a) => Date.parse(a.start) >= from && Date.parse(a.start) < to;
      const heading = h('a', { href: `#/schedule?date=${d}${view.by === 'room' ? '&by=room' : ''}` }, dayHeading(d));
      if (view.by === 'clinician') {
        return { key: d, heading, day: d, items: visible.filter((a) => a.clinicianId === chosen?.id && onDay(a)),
          free: freeRanges(slots.filter((s) => s.clinicianId === chosen?.id && Date.parse(s.start) >= from && Date.parse(s.start) < to)),
          bookable: true, drop: { clinician: chosen?.id, label: dayHeading(d) } };
      }
      const items = visible.filter((a) => a.roomId === chosen?.id && onDay(a));
      return { key: d, heading, day: d, items, free: roomFree(items, d), drop: { room: chosen?.id, label: dayHeading(d) } };
    });
  }

  /** "23–29 Nov 2026", "30 Nov – 6 Dec 2026", "28 Dec 2026 – 3 Jan 2027". */
  function weekTitle(first, last) {
    const [a, b] = [plainDate(first).split(' '), plainDate(last).split(' ')];
    if (a[2] !== b[2]) return `${a.join(' ')} – ${b.join(' ')}`;
    return a[1] === b[1] ? `${a[0]}–${b.join(' ')}` : `${a[0]} ${a[1]} – ${b.join(' ')}`;
  }

  function dayHeading(d) {
    const [y, m, dd] = d.split('-').map(Number);
    return new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short' }).format(new Date(Date.UTC(y, m - 1, dd)));
  }

  function openingOf(d) { return session.practice.openingHours.find((o) => o.weekday === weekday(d)); }

  /** A room's free time on a day: the opening hours (from now on) less the time its
   *  appointments hold, buffers included. Shown only; the server picks the room of a booking. */
  function roomFree(items, d) {
    const hours = openingOf(d);
    if (!hours) return [];
    const dayStart = zonedInstant(d, 0).getTime();
    let cursor = Math.max(dayStart + minutesOf(hours.opens) * 60000, Math.ceil(Date.now() / 300000) * 300000);
    const close = dayStart + minutesOf(hours.closes) * 60000;
    const free = [];
    for (const a of [...items].sort((x, y) => x.start.localeCompare(y.start))) {
      const s = Date.parse(a.start);
      if (s - cursor >= 15 * 60000 && cursor < close) free.push({ start: new Date(cursor).toISOString(), end: new Date(Math.min(s, close)).toISOString() });
      cursor = Math.max(cursor, Date.parse(a.end) + (a.bufferAfterMinutes || 0) * 60000);
    }
    if (close - cursor >= 15 * 60000) free.push({ start: new Date(cursor).toISOString(), end: new Date(close).toISOString() });
    return free;
  }

  function draw() {
    const list = columns();
    const shown = days();
    // One time axis for every column: the widest opening hours of the days shown, widened to
    // every appointment shown.
    let startMin = 24 * 60;
    let endMin = 0;
    for (const d of shown) {
      const hours = openingOf(d);
      if (hours) { startMin = Math.min(startMin, minutesOf(hours.opens)); endMin = Math.max(endMin, minutesOf(hours.closes)); }
    }
    if (startMin >= endMin) { startMin = 8 * 60; endMin = 18 * 60; }
    for (const column of list) {
      const dayStart = zonedInstant(column.day, 0).getTime();
      for (const a of column.items) {
        startMin = Math.min(startMin, Math.floor((Date.parse(a.start) - dayStart) / 3600000) * 60);
        endMin = Math.max(endMin, Math.ceil((Date.parse(a.end) - dayStart) / 3600000) * 60);
      }
    }
    startMin = Math.max(0, startMin);
    endMin = Math.min(24 * 60, Math.max(endMin, startMin + 60));
    const columnHeight = `${(endMin - startMin) * REM_PER_MINUTE}rem`;

    const axis = h('div', { class: 'sched-axis', 'aria-hidden': 'true', style: { height: columnHeight } });
    for (let m = Math.ceil(startMin / 60) * 60; m < endMin; m += 60) {
      axis.append(h('span', { class: 'sched-hour', style: { top: `${(m - startMin) * REM_PER_MINUTE}rem` } }, `${String(m / 60).padStart(2, '0')}:00`));
    }
    const week = view.span === 'week';
    const drawn = list.map((column) => {
      const dayStart = zonedInstant(column.day, 0).getTime();
      const top = (instant) => `${((Date.parse(instant) - dayStart) / 60000 - startMin) * REM_PER_MINUTE}rem`;
      const height = (a, b) => `${Math.max((Date.parse(b) - Date.parse(a)) / 60000 * REM_PER_MINUTE, 2.75)}rem`;
      const closed = !openingOf(column.day);
      const headingText = typeof column.heading === 'string' ? column.heading : column.heading.textContent;
      const lanes = laneLayout(column.items);
      const dataset = { day: column.day, startMinute: String(startMin), endMinute: String(endMin), label: column.drop.label || '' };
      if (column.drop.clinician) dataset.clinician = column.drop.clinician;
      if (column.drop.room) dataset.room = column.drop.room;
      const count = column.items.length;
      const body = h('div', {
        // A named list, or (with nothing in it) a named group: aria-label needs a role to label.
        class: ['sched-col', closed && 'sched-closed'], role: count + column.free.length ? 'list' : 'group',
        'aria-label': `${headingText}: ${count} appointment${count === 1 ? '' : 's'}${closed ? ', closed' : ''}`, dataset, style: { height: columnHeight },
      },
      column.free.map((range) => h('div', { role: 'listitem', class: 'sched-item', style: { top: top(range.start), height: height(range.start, range.end) } },
        column.bookable ? h('button', {
          type: 'button', class: ['free-slot', moving && 'free-slot-target'], dataset: { start: range.start, clinician: range.clinicianId },
          on: { click: () => chooseInRange(ctx, range, freeSlotChosen) },
        }, h('span', { class: 'visually-hidden' }, `${week ? `${dayHeading(column.day)}, ` : `${headingText}, `}`),
        `${moving ? 'Move here' : 'Free'} ${time(range.start)}–${time(range.end)}`)
          : h('div', { class: 'free-slot free-room' }, h('span', { class: 'visually-hidden' }, `${headingText}, `), `Free ${time(range.start)}–${time(range.end)}`))),
      column.items.map((a) => {
        const lane = lanes.get(a.id);
        const item = h('div', { role: 'listitem', class: 'sched-item', style: { top: top(a.start), height: height(a.start, a.end) } }, appointmentButton(a));
        if (lane.of > 1) {
          item.style.setProperty('left', `calc(${(lane.index / lane.of) * 100}% + 0.125rem)`);
          item.style.setProperty('right', `calc(${((lane.of - lane.index - 1) / lane.of) * 100}% + 0.125rem)`);
        }
        return item;
      }));
      return h('div', { class: 'sched-column', dataset: { key: column.key } },
        h('h2', { class: 'sched-head' }, column.heading, column.sub ? h('span', { class: 'sched-sub' }, column.sub) : null), body);
    });
    replace(grid, h('div', { class: ['sched-grid', week && 'sched-week'] },
      h('div', { class: 'sched-column sched-axis-column' }, h('div', { class: 'sched-head', 'aria-hidden': 'true' }, ''), axis),
      drawn));
    drawLegend(list);
    const off = appointments.filter((a) => a.status === 'cancelled' || a.status === 'no_show');
    const visibleCount = list.reduce((n, c) => n + c.items.length, 0);
    const freeText = view.by === 'room' ? 'free room time shown (the booking picks the room)'
      : `free time shown${moving ? ' for the move' : ` for a ${typeName(typeSelect.value).toLowerCase()}`}`;
    replace(extra,
      !week && !openingOf(view.day) ? h('p', { class: 'notice notice-warning' }, 'The practice is closed on this day.') : null,
      h('p', { class: 'muted' }, `${visibleCount} appointment${visibleCount === 1 ? '' : 's'} · ${freeText}`),
      off.length ? h('details', {}, h('summary', {}, `${off.length} cancelled or no-show`), h('ul', { class: 'plain' }, off.map((a) =>
        h('li', {}, `${week ? `${date(a.start)}, ` : ''}${time(a.start)} ${patientNames.get(a.patientId) || 'Patient'} with ${clinicianName(a.clinicianId)} — ${STATUS[a.status]}${a.cancellationReason ? `: ${a.cancellationReason}` : ''}`)))) : null);
  }

  function appointmentButton(a) {
    const minutes = Math.round((Date.parse(a.end) - Date.parse(a.start)) / 60000);
    const dataset = { appointment: a.id, start: a.start, clinician: a.clinicianId, minutes: String(minutes) };
    if (a.allowedActions?.includes('reschedule')) dataset.draggable = 'true';
    const level = view.colour === 'urgency' ? urgencyOf(a) : null;
    const detail = [
      level ? levelLabel(level) : null,
      typeName(a.appointmentTypeId),
      view.by === 'room' ? clinicianName(a.clinicianId) : null,
      STATUS[a.status],
      view.by === 'clinician' && a.roomId ? roomName(a.roomId) : null,
    ].filter(Boolean).join(' · ');
    // A short block shows a compact label (start and patient on one line); its full text is
    // its accessible name and its tooltip.
    const patientName = patientNames.get(a.patientId) || 'Patient';
    const full = `${time(a.start)}–${time(a.end)} ${patientName} · ${detail}`;
    const short = minutes < 30;
    return h('button', {
      type: 'button', class: ['appointment', colourClass(a), `status-${a.status}`, moving?.id === a.id && 'is-moving', short && 'appt-compact'], dataset,
      title: full, 'aria-label': full,
      on: { click: () => openAppointment(ctx, a) },
    },
    h('span', { class: 'appt-time' }, short ? time(a.start) : `${time(a.start)}–${time(a.end)}`),
    h('span', { class: 'appt-patient' }, patientName),
    short ? null : h('span', { class: 'appt-type' }, detail));
  }

  /** Side-by-side lanes for appointments that overlap in one column (a room-less column). */
  function laneLayout(items) {
    const result = new Map();
    const sorted = [...items].sort((a, b) => a.start.localeCompare(b.start));
    let cluster = [];
    let clusterEnd = 0;
    const flush = () => { const of = Math.max(...cluster.map((x) => x.index)) + 1; cluster.forEach((x) => result.set(x.id, { index: x.index, of })); cluster = []; };
    for (const a of sorted) {
      const s = Date.parse(a.start);
      if (cluster.length && s >= clusterEnd) flush();
      const busyLanes = new Set(cluster.filter((x) => x.end > s).map((x) => x.index));
      let index = 0;
      while (busyLanes.has(index)) index += 1;
      cluster.push({ id: a.id, index, end: Date.parse(a.end) });
      clusterEnd = Math.max(clusterEnd, Date.parse(a.end));
    }
    if (cluster.length) flush();
    return result;
  }

  function drawLegend(list) {
    const hint = h('p', { class: 'muted drag-hint' }, 'Drag an appointment to move it (on a touch screen, hold it first), or tap it to move it with a form.');
    if (view.colour === 'urgency') {
      replace(legend, h('ul', { class: 'legend', 'aria-label': 'Colours: urgency' },
        catalogue.levels().map(({ level }) => h('li', {}, h('span', { class: ['swatch', `urgency-${levelColour(level)}`], 'aria-hidden': 'true' }), levelWords(level))),
        h('li', {}, h('span', { class: 'swatch urgency-none', 'aria-hidden': 'true' }), 'Not triaged in the day before')), hint);
      return;
    }
    const used = [...new Set(list.flatMap((c) => c.items.map((a) => a.appointmentTypeId)))];
    replace(legend, used.length ? h('ul', { class: 'legend', 'aria-label': 'Colours: appointment types' }, used.map((id) =>
      h('li', {}, h('span', { class: ['swatch', `type-${typeIndex(id)}`], 'aria-hidden': 'true' }), typeName(id)))) : null, hint);
  }

  // MARK: - Moving: by dragging, or by tapping a free slot

  function accepts(button, column) {
    const a = appointments.find((x) => x.id === button.dataset.appointment);
    if (!a) return false;
    if (column.dataset.room) return column.dataset.room === (a.roomId && rooms.some((r) => r.id === a.roomId) ? a.roomId : 'none');
    return Boolean(column.dataset.clinician);
  }

  async function dropped(button, target) {
    const appointment = appointments.find((a) => a.id === button.dataset.appointment);
    if (!appointment) return;
    const start = rfc3339(zonedInstant(target.day, target.minutes));
    const clinicianId = target.column.dataset.clinician || appointment.clinicianId;
    if (Date.parse(start) === Date.parse(appointment.start) && clinicianId === appointment.clinicianId) return;
    const name = patientNames.get(appointment.patientId) || 'The appointment';
    button.setAttribute('aria-busy', 'true');
    try {
      await transition(appointment, { action: 'reschedule', start, clinicianId });
      toast(`Moved ${name} to ${dayHeading(target.day)} ${time(start)} with ${clinicianName(clinicianId)}`, 'success');
      announce(`${name} moved to ${time(start)}`);
    } catch (error) {
      button.removeAttribute('aria-busy');
      if (error.status === 409) openAppointment(ctx, appointment, { conflict: error, attempt: { start, clinicianId } });
      else if (error.status === 412) { toast('Someone changed this appointment meanwhile; the schedule now shows it as it is.', 'error'); load(); }
      else toast(error.errors[0] ? `${error.errors[0].field}: ${error.errors[0].message}` : error.message, 'error');
    }
  }

  function startMoving(appointment) {
    moving = appointment;
    replace(moveBanner, `Moving ${patientNames.get(appointment.patientId) || 'the appointment'} (${time(appointment.start)}): tap a highlighted free time. `,
      h('button', { type: 'button', class: 'button', on: { click: stopMoving } }, 'Stop moving'));
    moveBanner.hidden = false;
    if (view.by === 'room') { view.by = 'clinician'; update(); }
    loadSlots().then(() => { draw(); grid.querySelector('.free-slot')?.focus(); });
  }

  function stopMoving() {
    moving = null;
    moveBanner.hidden = true;
    loadSlots().then(draw);
  }

  /** Free slots that follow one another (within a buffer's length) as one free period. */
  function freeRanges(list) {
    const ranges = [];
    for (const slot of list) {
      const last = ranges[ranges.length - 1];
      if (last && Date.parse(slot.start) - Date.parse(last.end) <= 10 * 60000) {
        last.end = slot.end;
        last.slots.push(slot);
      } else ranges.push({ clinicianId: slot.clinicianId, start: slot.start, end: slot.end, slots: [slot] });
    }
    return ranges;
  }

  async function freeSlotChosen(slot) {
    if (!moving) { openBooking(ctx, slot, typeSelect.value); return; }
    const appointment = moving;
    try {
      await transition(appointment, { action: 'reschedule', start: slot.start, clinicianId: slot.clinicianId });
      stopMoving();
      toast(`Moved to ${time(slot.start)} with ${clinicianName(slot.clinicianId)}`, 'success');
    } catch (error) {
      if (error.status === 409) { stopMoving(); openAppointment(ctx, appointment, { conflict: error, attempt: { start: slot.start, clinicianId: slot.clinicianId } }); } else toast(error.message, 'error');
    }
  }

  /** Appointments changed from this screen, until when: their events, a moment later, are
   *  the echo of a change already shown and need no second reload. */
  const ownChanges = new Map();
  const ownEcho = (e) => e.actorId === session.user.id && (ownChanges.get(e.resourceId) || 0) > Date.now();

  async function transition(appointment, body) {
    const updated = await api.post(`/appointments/${appointment.id}/transitions`, body, { ifMatch: appointment.version });
    ownChanges.set(appointment.id, Date.now() + 5000);
    await load();
    return updated;
  }

  const stopDrag = enableDrag(grid, { remPerMinute: REM_PER_MINUTE, accepts, drop: dropped });
  const onKey = (event) => { if (event.key === 'Escape' && moving) stopMoving(); };
  document.addEventListener('keydown', onKey);
  const unsubscribe = live.subscribe(['appointment.*', 'schedule.*', 'clinician.availability_changed', 'patient.triaged'], (all) => {
    const events = all.filter((e) => !ownEcho(e));
    if (view.colour === 'urgency' && events.some((e) => e.kind === 'patient.triaged' || e.kind === 'reset')) {
      loadUrgency(appointments, true).then(() => load());
    } else if (events.some((e) => e.kind !== 'patient.triaged')) load();
  });
  start();

  return () => {
    alive = false;
    unsubscribe();
    stopDrag();
    document.removeEventListener('keydown', onKey);
    document.querySelectorAll('dialog.screen-dialog').forEach((d) => d.remove());
  };
}

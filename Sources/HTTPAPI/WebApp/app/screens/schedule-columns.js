// What the schedule's grid shows, worked out from what was loaded: its columns (a clinician
// or a room per column for a day, a day per column for a week), each with its appointments,
// its free time and where a dragged appointment may land; side-by-side lanes for appointments
// that overlap in one column. Free time comes from the server's free slots (for clinicians) or
// is the opening hours less the bookings (for rooms, shown only: the server picks the room of
// a booking). Nothing is drawn here.

import { h, words, zonedInstant, addDays, minutesOf } from '../ui.js';
import { days, dayHeading, openingOf } from './schedule-days.js';

const ROOM_TYPES = { exam: 'Consulting', surgery: 'Theatre', dental: 'Dental', imaging: 'Imaging', isolation: 'Isolation' };

/** Whether an appointment no longer holds its time (listed below the grid, not on it). */
export const isOff = (a) => (a.statusFacts ? !a.statusFacts.holdsTime : false);

/** Whose week is shown: {id, name} of the chosen clinician or room, or undefined. */
export function weekOf({ view, clinicians, rooms }) {
  if (view.by === 'room') { const r = rooms.find((x) => x.id === view.who); return r && { id: r.id, name: r.name }; }
  const c = clinicians.find((x) => x.id === view.who);
  return c && { id: c.id, name: c.displayName };
}

/** The columns of the current view: [{key, heading, sub, day, items, free, bookable, drop}].
 *  `state`: {view, clinicians, rooms, appointments, slots}; `practice`: its opening hours. */
export function columns(state, practice) {
  const { view, clinicians, rooms, appointments, slots } = state;
  const visible = appointments.filter((a) => !isOff(a));
  if (view.span === 'day') {
    if (view.by === 'clinician') {
      return clinicians.filter((c) => !c.retiredAt || visible.some((a) => a.clinicianId === c.id)).map((c) => ({
        key: c.id, heading: c.retiredAt ? `${c.displayName} (retired)` : c.displayName, day: view.day, items: visible.filter((a) => a.clinicianId === c.id),
        free: freeRanges(slots.filter((s) => s.clinicianId === c.id)), bookable: true, drop: { clinician: c.id, label: c.displayName },
      }));
    }
    const list = rooms.map((r) => ({
      key: r.id, heading: r.name, sub: ROOM_TYPES[r.type] || words(r.type), day: view.day, items: visible.filter((a) => a.roomId === r.id),
      room: r.id, drop: { room: r.id, label: r.name },
    }));
    const roomless = visible.filter((a) => !a.roomId || !rooms.some((r) => r.id === a.roomId));
    if (roomless.length) list.push({ key: 'none', heading: 'No room', day: view.day, items: roomless, drop: { room: 'none', label: '' } });
    for (const column of list) column.free = column.room ? roomFree(practice, column.items, view.day) : [];
    return list;
  }
  const chosen = weekOf(state);
  return days(view).map((d) => {
    const [from, to] = [zonedInstant(d, 0).getTime(), zonedInstant(addDays(d, 1), 0).getTime()];
    const onDay = (a) => Date.parse(a.start) >= from && Date.parse(a.start) < to;
    const heading = h('a', { href: `#/schedule?date=${d}${view.by === 'room' ? '&by=room' : ''}` }, dayHeading(d));
    if (view.by === 'clinician') {
      return { key: d, heading, day: d, items: visible.filter((a) => a.clinicianId === chosen?.id && onDay(a)),
        free: freeRanges(slots.filter((s) => s.clinicianId === chosen?.id && Date.parse(s.start) >= from && Date.parse(s.start) < to)),
        bookable: true, drop: { clinician: chosen?.id, label: dayHeading(d) } };
    }
    const items = visible.filter((a) => a.roomId === chosen?.id && onDay(a));
    return { key: d, heading, day: d, items, free: roomFree(practice, items, d), drop: { room: chosen?.id, label: dayHeading(d) } };
  });
}

/** A room's free time on a day: the opening hours (from now on) less the time its
 *  appointments hold, buffers included. Shown only; the server picks the room of a booking. */
function roomFree(practice, items, d) {
  const hours = openingOf(practice, d);
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

/** Free slots that follow one another (within a buffer's length) as one free period:
 *  [{clinicianId, start, end, slots}]. */
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

/** Side-by-side lanes for appointments that overlap in one column (a room-less column):
 *  appointment id → {index, of}. */
export function laneLayout(items) {
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

/** One time axis for every column, in minutes after midnight: the widest opening hours of the
 *  days shown, widened to every appointment shown (08:00–18:00 when closed throughout). */
export function timeSpan(list, shown, practice) {
  let startMin = 24 * 60;
  let endMin = 0;
  for (const d of shown) {
    const hours = openingOf(practice, d);
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
  return { startMin, endMin };
}

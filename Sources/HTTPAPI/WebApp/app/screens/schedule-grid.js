// The schedule's time grid: an hour axis and a column per clinician, room or day on one time
// scale, each column a named list of its free periods (buttons to book, or to move to while
// moving) and its appointments, overlapping ones side by side. The columns carry what a drag
// needs to place a drop (day, first and last minute, clinician or room).

import { h, replace, time, zonedInstant } from '../ui.js';
import { laneLayout, timeSpan } from './schedule-columns.js';
import { dayHeading, openingOf } from './schedule-days.js';

export const REM_PER_MINUTE = 0.2; // 15 minutes = 3 rem, taller than a 44 px touch target

/** Draws `list` (the columns of schedule-columns.js) into `grid`. `shown`: the days shown;
 *  `card(a)`: an appointment's button; `freeChosen(range)`: a free period tapped. */
export function drawGrid(grid, { view, list, shown, practice, moving, card, freeChosen }) {
  const { startMin, endMin } = timeSpan(list, shown, practice);
  const columnHeight = `${(endMin - startMin) * REM_PER_MINUTE}rem`;
  const axis = h('div', { class: 'sched-axis', 'aria-hidden': 'true', style: { height: columnHeight } });
  for (let m = Math.ceil(startMin / 60) * 60; m < endMin; m += 60) {
    axis.append(h('span', { class: 'sched-hour', style: { top: `${(m - startMin) * REM_PER_MINUTE}rem` } }, `${String(m / 60).padStart(2, '0')}:00`));
  }
  const week = view.span === 'week';
  const drawn = list.map((column) => drawColumn(column, { week, practice, startMin, endMin, columnHeight, moving, card, freeChosen }));
  replace(grid, h('div', { class: ['sched-grid', week && 'sched-week'] },
    h('div', { class: 'sched-column sched-axis-column' }, h('div', { class: 'sched-head', 'aria-hidden': 'true' }, ''), axis),
    drawn));
}

function drawColumn(column, { week, practice, startMin, endMin, columnHeight, moving, card, freeChosen }) {
  const dayStart = zonedInstant(column.day, 0).getTime();
  const top = (instant) => `${((Date.parse(instant) - dayStart) / 60000 - startMin) * REM_PER_MINUTE}rem`;
  const height = (a, b) => `${Math.max((Date.parse(b) - Date.parse(a)) / 60000 * REM_PER_MINUTE, 2.75)}rem`;
  const closed = !openingOf(practice, column.day);
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
      on: { click: () => freeChosen(range) },
    }, h('span', { class: 'visually-hidden' }, `${week ? `${dayHeading(column.day)}, ` : `${headingText}, `}`),
    `${moving ? 'Move here' : 'Free'} ${time(range.start)}–${time(range.end)}`)
      : h('div', { class: 'free-slot free-room' }, h('span', { class: 'visually-hidden' }, `${headingText}, `), `Free ${time(range.start)}–${time(range.end)}`))),
  column.items.map((a) => {
    const lane = lanes.get(a.id);
    const item = h('div', { role: 'listitem', class: 'sched-item', style: { top: top(a.start), height: height(a.start, a.end) } }, card(a));
    if (lane.of > 1) {
      item.style.setProperty('left', `calc(${(lane.index / lane.of) * 100}% + 0.125rem)`);
      item.style.setProperty('right', `calc(${((lane.of - lane.index - 1) / lane.of) * 100}% + 0.125rem)`);
    }
    return item;
  }));
  return h('div', { class: 'sched-column', dataset: { key: column.key } },
    h('h2', { class: 'sched-head' }, column.heading, column.sub ? h('span', { class: 'sched-sub' }, column.sub) : null), body);
}

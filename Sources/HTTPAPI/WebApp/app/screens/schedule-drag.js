// Dragging appointments on the schedule's time grid with pointer events: a mouse or pen drags
// once it has moved a few pixels; a finger holds still for a moment first, so a swipe that
// starts on an appointment still scrolls the grid (an iPad). While dragging, a marker in the
// column under the pointer shows where the appointment would start, snapped to 5 minutes, and
// the grid scrolls near its edges. Dropping hands the place to the schedule, which asks the
// server; nothing here decides whether the time is free. A tap stays a tap (it opens the
// appointment), Escape cancels a drag, and keyboard users move with the appointment's form.

import { h, hhmm } from '../ui.js';

const MOVE_THRESHOLD = 6; // px a mouse or pen travels before a press becomes a drag
const TOUCH_SLOP = 10; // px a finger may wander while it holds
const TOUCH_HOLD_MS = 350;
const SNAP = 5; // minutes
const EDGE = 48; // px from the scroller's edge where the grid starts scrolling

/** Makes the `.appointment[data-draggable]` buttons inside `scroller` draggable.
 *  `remPerMinute`: the grid's scale. `accepts(button, column)`: whether the column (a
 *  `.sched-col[data-day]`) may take it. `drop(button, {column, day, minutes})`: the drop.
 *  Returns the function that removes the listeners. */
export function enableDrag(scroller, { remPerMinute, accepts, drop }) {
  let press = null; // {button, pointerId, type, x, y, grabY, timer, armed}
  let drag = null; // {ghost, marker, target, frame, lastX, lastY}
  let swallowClick = false;

  const pxPerMinute = () => remPerMinute * parseFloat(getComputedStyle(document.documentElement).fontSize || '16');

  function onPointerDown(event) {
    if (press || drag) return;
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    const button = event.target.closest('.appointment[data-draggable]');
    if (!button || !scroller.contains(button)) return;
    const rect = button.getBoundingClientRect();
    press = { button, pointerId: event.pointerId, type: event.pointerType, x: event.clientX, y: event.clientY, grabY: event.clientY - rect.top, armed: event.pointerType !== 'touch' };
    if (!press.armed) {
      press.timer = setTimeout(() => { if (press) { press.armed = true; begin(press.x, press.y); } }, TOUCH_HOLD_MS);
    }
    window.addEventListener('pointermove', onPointerMove);
    window.addEventListener('pointerup', onPointerUp);
    window.addEventListener('pointercancel', onPointerCancel);
  }

  function onPointerMove(event) {
    if (!press || event.pointerId !== press.pointerId) return;
    const distance = Math.hypot(event.clientX - press.x, event.clientY - press.y);
    if (!drag) {
      if (press.type === 'touch') {
        if (!press.armed && distance > TOUCH_SLOP) release(); // a swipe: let the grid scroll
        return;
      }
      if (distance < MOVE_THRESHOLD) return;
      begin(event.clientX, event.clientY);
    }
    event.preventDefault();
    follow(event.clientX, event.clientY);
  }

  function onPointerUp(event) {
    if (!press || event.pointerId !== press.pointerId) return;
    if (!drag) { release(); return; }
    follow(event.clientX, event.clientY);
    const { target } = drag;
    const button = press.button;
    swallowClick = true;
    setTimeout(() => { swallowClick = false; }, 400);
    release();
    if (target) drop(button, target);
  }

  function onPointerCancel(event) { if (press && event.pointerId === press.pointerId) release(); }

  // While a finger drags, the page must not scroll under it (and a long press must not open
  // the browser's menu); only a non-passive touch listener can say so.
  function onTouchMove(event) { if (drag || press?.armed) event.preventDefault(); }
  function onContextMenu(event) { if (press || drag) event.preventDefault(); }
  function onClick(event) {
    if (!swallowClick) return;
    swallowClick = false;
    event.preventDefault();
    event.stopPropagation();
  }
  function onKey(event) { if (event.key === 'Escape' && drag) release(); }

  function begin(x, y) {
    const button = press.button;
    const rect = button.getBoundingClientRect();
    const ghost = h('div', { class: ['drag-ghost', ...[...button.classList].filter((c) => c.startsWith('type-') || c.startsWith('urgency-'))], 'aria-hidden': 'true' },
      button.querySelector('.appt-patient')?.textContent || 'Appointment');
    ghost.style.setProperty('width', `${rect.width}px`);
    ghost.style.setProperty('height', `${Math.min(rect.height, 64)}px`);
    document.body.append(ghost);
    const marker = h('div', { class: 'drop-marker', 'aria-hidden': 'true' }, h('span', { class: 'drop-label' }));
    button.classList.add('is-dragging');
    document.body.classList.add('dragging');
    drag = { ghost, marker, target: null, frame: null, lastX: x, lastY: y };
    follow(x, y);
    drag.frame = requestAnimationFrame(autoScroll);
  }

  function follow(x, y) {
    drag.lastX = x;
    drag.lastY = y;
    drag.ghost.style.setProperty('transform', `translate(${Math.round(x - drag.ghost.offsetWidth / 2)}px, ${Math.round(y - press.grabY)}px)`);
    const column = document.elementFromPoint(x, y)?.closest('.sched-col[data-day]');
    if (!column || !scroller.contains(column) || !accepts(press.button, column)) {
      drag.marker.remove();
      drag.target = null;
      return;
    }
    const rect = column.getBoundingClientRect();
    const duration = Number(press.button.dataset.minutes) || 15;
    const first = Number(column.dataset.startMinute);
    const last = Number(column.dataset.endMinute);
    let minutes = Math.round(((y - press.grabY - rect.top) / pxPerMinute() + first) / SNAP) * SNAP;
    minutes = Math.max(first, Math.min(minutes, last - SNAP));
    drag.target = { column, day: column.dataset.day, minutes };
    drag.marker.style.setProperty('top', `${(minutes - first) * remPerMinute}rem`);
    drag.marker.style.setProperty('height', `${duration * remPerMinute}rem`);
    drag.marker.firstChild.textContent = `${hhmm(minutes)} ${column.dataset.label || ''}`.trim();
    if (drag.marker.parentElement !== column) column.append(drag.marker);
  }

  function autoScroll() {
    if (!drag) return;
    const rect = scroller.getBoundingClientRect();
    const { lastX: x, lastY: y } = drag;
    let dx = 0;
    let dy = 0;
    if (y < rect.top + EDGE) dy = -Math.ceil((rect.top + EDGE - y) / 4);
    else if (y > rect.bottom - EDGE) dy = Math.ceil((y - rect.bottom + EDGE) / 4);
    if (x < rect.left + EDGE) dx = -Math.ceil((rect.left + EDGE - x) / 4);
    else if (x > rect.right - EDGE) dx = Math.ceil((x - rect.right + EDGE) / 4);
    if (dx || dy) {
      scroller.scrollBy(dx, dy);
      follow(x, y);
    }
    drag.frame = requestAnimationFrame(autoScroll);
  }

  function release() {
    if (press) {
      clearTimeout(press.timer);
      press.button.classList.remove('is-dragging');
    }
    if (drag) {
      cancelAnimationFrame(drag.frame);
      drag.ghost.remove();
      drag.marker.remove();
      document.body.classList.remove('dragging');
    }
    press = null;
    drag = null;
    window.removeEventListener('pointermove', onPointerMove);
    window.removeEventListener('pointerup', onPointerUp);
    window.removeEventListener('pointercancel', onPointerCancel);
  }

  scroller.addEventListener('pointerdown', onPointerDown);
  scroller.addEventListener('touchmove', onTouchMove, { passive: false });
  scroller.addEventListener('contextmenu', onContextMenu);
  scroller.addEventListener('click', onClick, true);
  document.addEventListener('keydown', onKey);
  return () => {
    release();
    scroller.removeEventListener('pointerdown', onPointerDown);
    scroller.removeEventListener('touchmove', onTouchMove);
    scroller.removeEventListener('contextmenu', onContextMenu);
    scroller.removeEventListener('click', onClick, true);
    document.removeEventListener('keydown', onKey);
  };
}

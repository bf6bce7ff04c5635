// The ER board: waiting patients by level, each with a live countdown to its target time;
// overdue patients are highlighted and announced; status changes happen in place and reach
// every open board through the live stream.

import * as api from '../api.js';
import * as live from '../live.js';
import { h, replace, announce, toast, busy, levelBadge, levelColour, levelLabel, words, time, notice } from '../ui.js';

const STATUS = { waiting: 'Waiting', inTreatment: 'In treatment', done: 'Done', leftWithoutBeingSeen: 'Left without being seen' };

/** The words and look of a move to each status. Which moves an entry offers is the server's
 *  to say (its `allowedMoves`); this only dresses them. */
const MOVE_LOOKS = {
  inTreatment: { label: 'Start treatment', kind: 'primary' },
  leftWithoutBeingSeen: { label: 'Left without being seen', kind: 'quiet' },
  done: { label: 'Treatment done', kind: 'primary' },
};
const moveLook = (status) => MOVE_LOOKS[status] || { label: words(status), kind: null };

export function render(container, { session }) {
  let alive = true;
  let entries = new Map(); // patientId → entry as last fetched
  const cards = new Map(); // patientId → {card, countdown, statusText, actions}
  const announcedOverdue = new Set();
  let firstLoad = true;

  const counts = h('p', { class: 'board-counts', 'aria-live': 'off' });
  const clock = h('p', { class: 'clock', 'aria-hidden': 'true' });
  const board = h('div', { class: 'board' });
  const message = h('div');
  replace(container, h('section', { class: 'screen er-board', 'aria-labelledby': 'er-title' },
    h('header', { class: 'screen-header' },
      h('h1', { id: 'er-title' }, 'ER board'),
      clock,
      h('a', { class: 'button primary', href: '#/intake' }, 'New arrival')),
    counts, h('p', { class: 'muted keys-hint' }, 'Tip: arrow keys move between patients.'), message, board));

  const sections = new Map(); // level → {section, list}, for the levels someone is at
  const empty = h('p', { class: 'empty-state', hidden: true }, 'No one is waiting. New arrivals appear here the moment they are triaged.');
  board.append(empty);

  /** A level's section of the board, made when the first patient reaches that level. */
  function sectionFor(level) {
    if (!sections.has(level)) {
      const list = h('ol', { class: 'board-list', 'aria-labelledby': `er-level-${level}` });
      const section = h('section', { class: ['board-level', `board-${levelColour(level)}`] },
        h('h2', { id: `er-level-${level}` }, levelBadge(level), h('span', { class: 'level-count' })), list);
      sections.set(level, { section, list });
    }
    return sections.get(level);
  }

  async function load() {
    try {
      const data = await api.get('/triage/queue');
      if (!alive) return;
      replace(message);
      reconcile(data.items);
    } catch (error) {
      if (!alive) return;
      replace(message, notice(`${error.message} The board shows what was last known.`));
    }
  }

  function reconcile(items) {
    const next = new Map(items.map((item) => [item.patientId, item]));
    for (const [id, old] of entries) {
      if (!next.has(id)) {
        removeCard(id);
        if (!firstLoad) announce(`${old.patientName || 'A patient'} has left the board`);
      }
    }
    for (const item of items) {
      const old = entries.get(item.patientId);
      if (!old && !firstLoad) announce(`New arrival: ${item.patientName || 'patient'}, ${levelLabel(item.level)}`, { assertive: item.level <= 2 });
      else if (old && old.status !== item.status && !firstLoad) announce(`${item.patientName || 'Patient'}: ${STATUS[item.status].toLowerCase()}`);
      else if (old && old.level !== item.level && !firstLoad) announce(`${item.patientName || 'Patient'} re-triaged ${levelLabel(item.level)}`);
      upsertCard(item, old);
    }
    entries = next;
    arrange(items);
    empty.hidden = items.length > 0;
    const waiting = items.filter((i) => i.status === 'waiting').length;
    counts.textContent = `${waiting} waiting · ${items.length - waiting} in treatment`;
    firstLoad = false;
    tick();
  }

  /** Sections and cards in the order the server ranks them (level, then arrival); a level
   *  no one is at has no section. Nodes move only when out of place, keeping the focus. */
  function arrange(items) {
    const levels = [...new Set(items.map((i) => i.level))];
    let previous = null;
    for (const level of levels) {
      const inLevel = items.filter((i) => i.level === level);
      const { section, list } = sectionFor(level);
      const expected = previous ? previous.nextElementSibling : board.firstElementChild;
      if (section !== expected) board.insertBefore(section, expected);
      previous = section;
      for (const item of inLevel) {
        const card = cards.get(item.patientId).card;
        if (card.parentElement !== list || list.lastElementChild !== card) list.append(card);
      }
      section.querySelector('.level-count').textContent = ` — ${inLevel.length} ${inLevel.length === 1 ? 'patient' : 'patients'}`;
    }
    // Last, once every card is where it belongs: a re-triaged patient's card has left its old section.
    for (const [level, { section }] of sections) {
      if (!levels.includes(level)) { section.remove(); sections.delete(level); }
    }
  }

  function upsertCard(item, old) {
    let view = cards.get(item.patientId);
    if (!view) {
      const countdown = h('p', { class: 'countdown' });
      const statusText = h('p', { class: 'status-pill' });
      const actions = h('div', { class: 'card-actions' });
      const heading = h('h3', {});
      const details = h('p', { class: 'muted' });
      const alerts = h('ul', { class: 'alert-chips', 'aria-label': 'Alerts' });
      const card = h('li', { class: 'board-card glass', dataset: { patient: item.patientId } }, heading, details, alerts, countdown, statusText, actions);
      view = { card, countdown, statusText, actions, heading, details, alerts };
      cards.set(item.patientId, view);
    }
    const { card, statusText, actions, heading, details, alerts } = view;
    card.dataset.status = item.status;
    card.dataset.level = String(item.level);
    card.dataset.target = item.targetTime;
    card.className = ['board-card', 'glass', `level-edge-${levelColour(item.level)}`, item.status === 'inTreatment' && 'in-treatment'].filter(Boolean).join(' ');
    replace(heading, h('a', { class: 'card-link', href: `#/patients/${item.patientId}` }, item.patientName || 'Patient'), ' ', levelBadge(item.level));
    details.textContent = `${words(item.species || '')}${item.medicalRecordNumber ? ` · ${item.medicalRecordNumber}` : ''} · arrived ${time(item.arrivalTime)} · target ${time(item.targetTime)}`;
    replace(alerts, (item.alerts || []).map((a) => h('li', { class: 'chip chip-alert' }, a)));
    alerts.hidden = !(item.alerts || []).length;
    statusText.textContent = STATUS[item.status] || item.status;
    const moves = item.allowedMoves || [];
    if (!old || String(old.allowedMoves || []) !== String(moves)) {
      // Rebuilt only when the moves changed, so a focused button keeps its focus otherwise.
      const hadFocus = actions.contains(document.activeElement);
      replace(actions, moves.map((status) => {
        const { label, kind } = moveLook(status);
        return h('button', {
          type: 'button', class: ['button', kind], dataset: { move: status },
          'aria-label': `${label}: ${item.patientName || 'patient'}`,
          on: { click: (event) => move(event.currentTarget, item.patientId, status) },
        }, label);
      }));
      if (hadFocus) (actions.querySelector('button') || heading.querySelector('a')).focus();
    }
  }

  function removeCard(id) {
    const view = cards.get(id);
    if (!view) return;
    const focused = view.card.contains(document.activeElement);
    const neighbour = view.card.nextElementSibling || view.card.previousElementSibling;
    view.card.remove();
    cards.delete(id);
    if (focused) (neighbour?.querySelector('button, a') || document.getElementById('er-title')).focus();
  }

  async function move(button, patientId, status) {
    await busy(button, async () => {
      try {
        const entry = await api.post(`/triage/queue/${patientId}/status`, { status });
        if (!alive) return;
        toast(`${entries.get(patientId)?.patientName || 'Patient'}: ${STATUS[entry.status].toLowerCase()}`, 'success');
        await load();
      } catch (error) {
        toast(error.message, 'error');
        await load();
      }
    }, 'Saving…');
  }

  // The countdowns run locally every second from each target time; the server's figures
  // are refreshed whenever the board changes.
  function tick() {
    const now = Date.now();
    clock.textContent = time(now);
    for (const [id, view] of cards) {
      const item = entries.get(id);
      if (!item) continue;
      const seconds = Math.round((Date.parse(item.targetTime) - now) / 1000);
      const overdue = seconds < 0 && item.status === 'waiting';
      const abs = Math.abs(seconds);
      const text = `${Math.floor(abs / 60)}:${String(abs % 60).padStart(2, '0')}`;
      if (item.status !== 'waiting') view.countdown.textContent = `In treatment · waited from ${time(item.arrivalTime)}`;
      else view.countdown.textContent = overdue ? `Overdue by ${text}` : `${text} left`;
      view.card.classList.toggle('overdue', overdue);
      if (overdue && !announcedOverdue.has(id)) {
        announcedOverdue.add(id);
        announce(`${item.patientName || 'A patient'} (${levelLabel(item.level)}) is overdue: target was ${time(item.targetTime)}`, { assertive: true });
      }
      if (!overdue) announcedOverdue.delete(id);
    }
  }
  const ticker = setInterval(tick, 1000);

  // Arrow keys move between patients (board order), Home and End to the first and last.
  board.addEventListener('keydown', (event) => {
    if (!['ArrowDown', 'ArrowUp', 'ArrowRight', 'ArrowLeft', 'Home', 'End'].includes(event.key)) return;
    const all = [...board.querySelectorAll('.board-card')];
    const current = all.findIndex((card) => card.contains(document.activeElement));
    if (current < 0) return;
    const forward = event.key === 'ArrowDown' || event.key === 'ArrowRight';
    const next = event.key === 'Home' ? 0 : event.key === 'End' ? all.length - 1 : current + (forward ? 1 : -1);
    if (next < 0 || next >= all.length) return;
    event.preventDefault();
    all[next].querySelector('a, button')?.focus();
  });

  const unsubscribe = live.subscribe(['triage.queue_changed', 'patient.triaged', 'patient.updated', 'patient.archived'], () => load());
  load();

  return () => { alive = false; clearInterval(ticker); unsubscribe(); };
}

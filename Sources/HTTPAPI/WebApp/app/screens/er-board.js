// The ER board: waiting patients by level, each with a live countdown to its target time;
// overdue patients are highlighted and announced; status changes happen in place and reach
// every open board through the live stream.

import * as api from '../api.js';
import * as live from '../live.js';
import { h, replace, announce, toast, busy, levelBadge, LEVELS, words, time, notice } from '../ui.js';

const STATUS = { waiting: 'Waiting', inTreatment: 'In treatment', done: 'Done', leftWithoutBeingSeen: 'Left without being seen' };

/** The moves the board allows from each status (the API refuses any other). */
const MOVES = {
  waiting: [['inTreatment', 'Start treatment', 'primary'], ['leftWithoutBeingSeen', 'Left without being seen', 'quiet']],
  inTreatment: [['done', 'Treatment done', 'primary']],
};

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

  const sections = {};
  for (const level of [1, 2, 3, 4, 5]) {
    const list = h('ol', { class: 'board-list', 'aria-labelledby': `er-level-${level}` });
    const section = h('section', { class: ['board-level', `board-${LEVELS[level].colour}`], hidden: true },
      h('h2', { id: `er-level-${level}` }, levelBadge(level), h('span', { class: 'level-count' })), list);
    sections[level] = { section, list };
    board.append(section);
  }
  const empty = h('p', { class: 'empty-state', hidden: true }, 'No one is waiting. New arrivals appear here the moment they are triaged.');
  board.append(empty);

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
      if (!old && !firstLoad) announce(`New arrival: ${item.patientName || 'patient'}, ${LEVELS[item.level].label}`, { assertive: item.level <= 2 });
      else if (old && old.status !== item.status && !firstLoad) announce(`${item.patientName || 'Patient'}: ${STATUS[item.status].toLowerCase()}`);
      else if (old && old.level !== item.level && !firstLoad) announce(`${item.patientName || 'Patient'} re-triaged ${LEVELS[item.level].label}`);
      upsertCard(item, old);
    }
    entries = next;
    // Order within each level as the server ranks them (level, then arrival).
    for (const level of [1, 2, 3, 4, 5]) {
      const inLevel = items.filter((i) => i.level === level);
      const { section, list } = sections[level];
      for (const item of inLevel) {
        const card = cards.get(item.patientId).card;
        if (card.parentElement !== list || list.lastElementChild !== card) list.append(card);
      }
      section.hidden = inLevel.length === 0;
      section.querySelector('.level-count').textContent = ` — ${inLevel.length} ${inLevel.length === 1 ? 'patient' : 'patients'}`;
    }
    empty.hidden = items.length > 0;
    const waiting = items.filter((i) => i.status === 'waiting').length;
    counts.textContent = `${waiting} waiting · ${items.length - waiting} in treatment`;
    firstLoad = false;
    tick();
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
    card.className = ['board-card', 'glass', `level-edge-${LEVELS[item.level].colour}`, item.status === 'inTreatment' && 'in-treatment'].filter(Boolean).join(' ');
    replace(heading, h('a', { class: 'card-link', href: `#/patients/${item.patientId}` }, item.patientName || 'Patient'), ' ', levelBadge(item.level));
    details.textContent = `${words(item.species || '')}${item.medicalRecordNumber ? ` · ${item.medicalRecordNumber}` : ''} · arrived ${time(item.arrivalTime)} · target ${time(item.targetTime)}`;
    replace(alerts, (item.alerts || []).map((a) => h('li', { class: 'chip chip-alert' }, a)));
    alerts.hidden = !(item.alerts || []).length;
    statusText.textContent = STATUS[item.status] || item.status;
    if (!old || old.status !== item.status) {
      // Rebuilt only when the status changed, so a focused button keeps its focus otherwise.
      const hadFocus = actions.contains(document.activeElement);
      replace(actions, (MOVES[item.status] || []).map(([status, label, kind]) => h('button', {
        type: 'button', class: ['button', kind], dataset: { move: status },
        'aria-label': `${label}: ${item.patientName || 'patient'}`,
        on: { click: (event) => move(event.currentTarget, item.patientId, status) },
      }, label)));
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
        announce(`${item.patientName || 'A patient'} (${LEVELS[item.level].label}) is overdue: target was ${time(item.targetTime)}`, { assertive: true });
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

// Home, by role: reception starts from intake and today's schedule; veterinarians and
// technicians from the ER board and their own day; administrators see all of it.

import * as api from '../api.js';
import * as live from '../live.js';
import { h, replace, levelBadge, levelLabel, time, today, addDays, zonedInstant, zonedParts, rfc3339, words } from '../ui.js';
import * as catalogue from '../catalogue.js';
import { loadInto } from '../forms.js';

export function render(container, { session }) {
  let alive = true;
  const role = session.role;
  const clinical = role === 'veterinarian' || role === 'technician';
  const greeting = h('p', { class: 'muted' }, `Signed in as ${session.user.displayName} at ${session.practice.name}.`);
  const erBox = h('div', {}, h('p', { class: 'muted' }, 'Loading…'));
  const dayBox = h('div', {}, h('p', { class: 'muted' }, 'Loading…'));
  const vaccineBox = h('div');

  const er = session.can('triage') ? h('section', { class: 'panel glass', 'aria-labelledby': 'home-er' },
    h('div', { class: 'row spread' }, h('h2', { id: 'home-er' }, 'ER board'), h('a', { class: 'button', href: '#/er' }, 'Open the board')), erBox) : null;
  const day = session.can('book') ? h('section', { class: 'panel glass', 'aria-labelledby': 'home-day' },
    h('div', { class: 'row spread' }, h('h2', { id: 'home-day' }, clinical ? 'My day' : 'Today’s schedule'), h('a', { class: 'button', href: `#/schedule?date=${today()}` }, 'Open the schedule')), dayBox) : null;
  const intake = session.can('triage') ? h('section', { class: 'panel glass hero', 'aria-labelledby': 'home-intake' },
    h('h2', { id: 'home-intake' }, 'A patient has arrived'),
    h('p', {}, 'Find or register the patient, triage, and book within the level’s maximum wait.'),
    h('a', { class: 'button primary large', href: '#/intake' }, 'Start intake')) : null;
  const vaccines = session.can('readRecords') && !clinical ? h('section', { class: 'panel glass', 'aria-labelledby': 'home-vaccines' },
    h('h2', { id: 'home-vaccines' }, 'Vaccinations due'), vaccineBox) : null;

  const order = clinical ? [er, day, intake] : role === 'receptionist' ? [intake, day, er, vaccines] : [er, intake, day, vaccines];
  replace(container, h('section', { class: 'screen home', 'aria-labelledby': 'home-title' },
    h('header', { class: 'screen-header' }, h('h1', { id: 'home-title' }, `Good ${partOfDay()}, ${session.user.displayName.startsWith('Dr ') ? session.user.displayName : session.user.displayName.split(' ')[0]}`)),
    greeting, h('div', { class: 'home-grid' }, order.filter(Boolean))));

  const isAlive = () => alive;

  function loadBoard() {
    if (!er) return;
    loadInto(erBox, () => api.get('/triage/queue'), (board) => {
      const waiting = board.items.filter((i) => i.status === 'waiting');
      const overdue = waiting.filter((i) => Date.parse(i.targetTime) < Date.now());
      replace(erBox,
        catalogue.loaded() ? h('ul', { class: 'level-summary', 'aria-label': 'Waiting by level' }, catalogue.levels().map(({ level }) => {
          const n = waiting.filter((i) => i.level === level).length;
          return h('li', {}, levelBadge(level), h('span', { class: n ? null : 'muted' }, ` ${n}`));
        })) : null,
        overdue.length ? h('p', { class: 'notice notice-error' }, `${overdue.length} overdue: ${overdue.map((i) => i.patientName).join(', ')}`) : null,
        waiting.length ? h('ol', { class: 'plain' }, waiting.slice(0, 5).map((i) => h('li', {},
          h('a', { href: `#/patients/${i.patientId}` }, i.patientName || 'Patient'), ` · ${levelLabel(i.level)} · target ${time(i.targetTime)}`)))
          : h('p', { class: 'muted' }, 'No one is waiting.'));
    }, { alive: isAlive });
  }

  function loadDay() {
    if (!day) return;
    loadInto(dayBox, async () => {
      const date = today();
      const [list, specialists] = await Promise.all([
        api.get('/appointments', { from: rfc3339(zonedInstant(date, 0)), to: rfc3339(zonedInstant(addDays(date, 1), 0)) }),
        api.get('/specialists'),
      ]);
      if (!alive) return;
      // A clinician's account and clinician profile share the display name in this API.
      const mine = clinical ? specialists.items.find((c) => c.displayName === session.user.displayName) : null;
      const items = list.items.filter((a) => a.status !== 'cancelled' && (!mine || a.clinicianId === mine.id));
      const name = (id) => specialists.items.find((c) => c.id === id)?.displayName || 'Clinician';
      const shown = items.slice(0, 12);
      const patients = new Map(await Promise.all([...new Set(shown.map((a) => a.patientId))].map(async (id) =>
        [id, await api.get(`/patients/${id}`).then((p) => p.name).catch(() => 'Patient')])));
      return { items, shown, patients, mine, name };
    }, ({ items, shown, patients, mine, name }) => {
      replace(dayBox, items.length ? h('ol', { class: 'plain day-list' }, shown.map((a) => h('li', {},
        h('strong', {}, `${time(a.start)}–${time(a.end)}`), ' ', h('a', { href: `#/patients/${a.patientId}` }, patients.get(a.patientId)),
        ` · ${mine ? '' : `${name(a.clinicianId)} · `}${words(a.status)}`)))
        : h('p', { class: 'muted' }, clinical && !mine ? 'You have no clinician profile; the practice’s appointments are on the schedule.' : 'No appointments today.'),
      items.length > 12 ? h('p', { class: 'muted' }, `and ${items.length - 12} more on the schedule`) : null);
    }, { alive: isAlive });
  }

  function loadVaccines() {
    if (!vaccines) return;
    loadInto(vaccineBox, () => api.get('/vaccinations/due', { withinDays: 14 }), (due) => {
      replace(vaccineBox, h('p', {}, `${due.overdue.length} overdue · ${due.dueSoon.length} due in the next 14 days`),
        h('ul', { class: 'plain' }, [...due.overdue, ...due.dueSoon].slice(0, 6).map((v) => h('li', {},
          h('a', { href: `#/patients/${v.patientId}` }, v.patientName || 'Patient'), ` · ${v.vaccine} · due ${v.nextDueDate}`))));
    }, { alive: isAlive });
  }

  const unsubscribe = live.subscribe(['triage.queue_changed', 'patient.triaged', 'appointment.*', 'schedule.*'], () => { loadBoard(); loadDay(); });
  loadBoard(); loadDay(); loadVaccines();
  return () => { alive = false; unsubscribe(); };
}

function partOfDay() {
  const { hour } = zonedParts(Date.now());
  return hour < 12 ? 'morning' : hour < 18 ? 'afternoon' : 'evening';
}

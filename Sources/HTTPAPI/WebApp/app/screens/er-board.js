// The ER board: waiting patients by level, each with a live countdown to its target time;
// overdue patients are highlighted and announced; status changes happen in place and reach
// every open board through the live stream. Each patient shows the level in force (an
// override by clinical judgement says from what, by whom and why; a red finding lowered is
// flagged until the patient is seen), when a re-assessment falls due, a way to re-assess at
// intake, a dialog to override the level, and for clinicians the consultation that records
// the visit.

import * as api from '../api.js';
import * as live from '../live.js';
import {
  h, replace, announce, toast, busy, levelBadge, levelColour, levelLabel, levelWords, words, time, notice, uid, field, showErrors, clearErrors,
} from '../ui.js';
import * as catalogue from '../catalogue.js';
import { pendingPanel, all as outboxEntries } from '../offline/outbox.js';

/** The words and look of a move to each status. Which moves an entry offers is the server's
 *  to say (its `allowedMoves`); this only dresses them. */
const MOVE_LOOKS = {
  inTreatment: { label: 'Start treatment', kind: 'primary' },
  leftWithoutBeingSeen: { label: 'Left without being seen', kind: 'quiet' },
  done: { label: 'Treatment done', kind: 'primary' },
};
const moveLook = (status) => MOVE_LOOKS[status] || { label: words(status), kind: null };

/** The deadlines already announced in this page session (overdue and re-assessment due), by
 *  kind, patient and deadline: each is spoken once, however often the board is opened. */
const announced = new Set();
const deadlineKey = (kind, patientId, at) => `${kind}:${patientId}:${Date.parse(at) || at}`;

/** The level the engine computed for the assessment the board follows. */
const computedLevel = (item) => item.override?.computedLevel ?? item.level;

/** Words for an override: from what computed level, by whom, why. */
function overrideText(override) {
  const how = override.direction === 'lowered' ? 'lowered' : 'raised';
  return `Overridden (${how}) from ${levelLabel(override.computedLevel)} by ${override.overriddenByName || 'a colleague'}: ${override.reason}`;
}

export function render(container, { session }) {
  let alive = true;
  let entries = new Map(); // patientId → entry as last fetched
  const cards = new Map(); // patientId → {card, countdown, statusText, actions}
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
    counts, h('p', { class: 'muted keys-hint' }, 'Tip: arrow keys move between patients.'), message,
    pendingPanel((e) => /^\/triage\/queue\//.test(e.path), 'Board changes waiting to send'), board));

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
      if (!old && !firstLoad) announce(`New arrival: ${item.patientName || 'patient'}, ${levelLabel(item.level)}`, { assertive: catalogue.isEmergency(item.level) });
      else if (old && old.status !== item.status && !firstLoad) announce(`${item.patientName || 'Patient'}: ${catalogue.boardStatusLabel(item.status).toLowerCase()}`);
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
      const reassess = h('p', { class: 'reassess' });
      const statusText = h('p', { class: 'status-pill' });
      const actions = h('div', { class: 'card-actions' });
      const heading = h('h3', {});
      const details = h('p', { class: 'muted' });
      const alerts = h('ul', { class: 'alert-chips', 'aria-label': 'Alerts' });
      const flag = h('p', { class: 'lowered-red-flag', hidden: true },
        h('span', { 'aria-hidden': 'true' }, '⚠ '), h('strong', {}, 'Red finding lowered — see now'));
      const overrideNote = h('p', { class: 'override-note', hidden: true });
      const reassessLink = h('a', {
        class: 'button', href: `#/intake?patient=${encodeURIComponent(item.patientId)}&reassess=1`, dataset: { action: 'reassess' },
      }, 'Re-assess');
      const overrideButton = session.can('triage') ? h('button', {
        type: 'button', class: 'button', dataset: { action: 'override' },
        on: { click: () => { const current = entries.get(item.patientId); if (current) openOverride(current, overrideButton); } },
      }, 'Override level') : null;
      // A clinician records the visit from the board (the patient came without an appointment).
      const consultLink = session.can('writeClinical') ? h('a', {
        class: 'button', href: `#/consult?patient=${encodeURIComponent(item.patientId)}&from=er`, dataset: { action: 'consult' },
      }, 'Consult') : null;
      const tools = h('div', { class: 'card-actions card-tools' }, consultLink, reassessLink, overrideButton);
      const card = h('li', { class: 'board-card glass', dataset: { patient: item.patientId } },
        heading, flag, overrideNote, details, alerts, countdown, reassess, statusText, actions, tools);
      view = { card, countdown, reassess, statusText, actions, heading, details, alerts, flag, overrideNote, reassessLink, overrideButton, consultLink };
      cards.set(item.patientId, view);
    }
    const { card, statusText, actions, heading, details, alerts, flag, overrideNote, reassessLink, overrideButton, consultLink } = view;
    card.dataset.status = item.status;
    card.dataset.level = String(item.level);
    card.dataset.target = item.targetTime;
    card.dataset.overridden = item.override ? item.override.direction : '';
    card.className = ['board-card', 'glass', `level-edge-${levelColour(item.level)}`, item.status === 'inTreatment' && 'in-treatment',
      item.loweredRedAwaitingCare && 'lowered-red'].filter(Boolean).join(' ');
    // Redrawn only when it changed: a reload of the board keeps a focused name link in place.
    const headingKey = `${item.patientName}|${item.level}`;
    if (view.headingKey !== headingKey) {
      const hadFocus = heading.contains(document.activeElement);
      replace(heading, h('a', { class: 'card-link', href: `#/patients/${item.patientId}` }, item.patientName || 'Patient'), ' ', levelBadge(item.level));
      view.headingKey = headingKey;
      if (hadFocus) heading.querySelector('a').focus();
    }
    flag.hidden = !item.loweredRedAwaitingCare;
    overrideNote.hidden = !item.override;
    overrideNote.textContent = item.override ? overrideText(item.override) : '';
    const name = item.patientName || 'patient';
    reassessLink.hidden = item.status !== 'waiting';
    reassessLink.setAttribute('aria-label', `Re-assess ${name} at intake`);
    overrideButton?.setAttribute('aria-label', `Override level: ${name}`);
    consultLink?.setAttribute('aria-label', `Consult: ${name}`);
    details.textContent = `${words(item.species || '')}${item.medicalRecordNumber ? ` · ${item.medicalRecordNumber}` : ''} · arrived ${time(item.arrivalTime)} · target ${time(item.targetTime)}`;
    replace(alerts, (item.alerts || []).map((a) => h('li', { class: 'chip chip-alert' }, a)));
    alerts.hidden = !(item.alerts || []).length;
    // A move made offline shows on its card until it is sent.
    const queued = outboxEntries().filter((e) => e.state === 'pending' && e.path === `/triage/queue/${item.patientId}/status`).pop();
    statusText.textContent = `${catalogue.boardStatusLabel(item.status)}${queued ? ` → ${catalogue.boardStatusLabel(queued.body.status)} (waiting to send)` : ''}`;
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

  /** The dialog that sets the level by clinical judgement: the five levels, the reason, and
   *  — lowering a case whose computed level is red — the confirmation the server asks for.
   *  A refusal is shown at the field it concerns. */
  function openOverride(item, opener) {
    const titleId = uid('override-title');
    const dialog = h('dialog', { class: 'dialog glass screen-dialog override-dialog', 'aria-labelledby': titleId });
    const close = () => { if (dialog.open) dialog.close(); dialog.remove(); };
    dialog.addEventListener('close', () => { dialog.remove(); if (opener.isConnected) opener.focus(); });
    const name = item.patientName || 'Patient';
    const computed = computedLevel(item);
    // Without the catalogue the levels the board itself shows are the choices (nothing else is known).
    const levels = catalogue.loaded() ? catalogue.levels().map((l) => l.level) : [item.level, computed].filter((l, i, all) => l && all.indexOf(l) === i);
    const vet = session.role === 'veterinarian';
    const radios = levels.map((level) => h('input', { type: 'radio', name: 'override-level', value: String(level), id: uid('level'), disabled: level === item.level }));
    const hintId = uid('levels-hint');
    const group = h('fieldset', { class: 'level-choice', id: uid('levels'), dataset: { field: 'level' }, 'aria-describedby': hintId },
      h('legend', {}, 'New level'),
      radios.map((radio, i) => h('label', { class: ['level-option', `level-option-${levelColour(levels[i])}`], for: radio.id },
        radio, levelBadge(levels[i]), levels[i] === item.level ? h('span', { class: 'muted' }, ' (in force now)') : null,
        levels[i] === computed && levels[i] !== item.level ? h('span', { class: 'muted' }, ' (computed)') : null)));
    const reason = h('textarea', { rows: 3, maxlength: 500, required: true, 'aria-required': 'true' });
    const confirm = h('input', { type: 'checkbox' });
    confirm.id = uid('confirm');
    confirm.dataset.field = 'confirmLoweringRed';
    const confirmBox = h('div', { class: 'field check confirm-red', hidden: true },
      confirm, h('label', { for: confirm.id }, 'I confirm lowering a case with a red finding'));
    const submit = h('button', { type: 'submit', class: 'button primary' }, 'Set the level');
    const result = h('div', { class: 'form-errors', role: 'alert', hidden: true });
    const form = h('form', { novalidate: true, class: 'stack-form' },
      h('div', { class: 'field' }, group,
        h('p', { class: 'hint', id: hintId }, vet ? 'Raise to a more urgent level, or lower it by your judgement.'
          : 'You can raise the level to a more urgent one; lowering it is a veterinarian’s decision.')),
      field('Reason', reason, { fieldName: 'reason', hint: 'Why the level is changed (kept with the assessment).' }),
      confirmBox, result,
      h('div', { class: 'row end' },
        h('button', { type: 'button', class: 'button quiet', on: { click: close } }, 'Cancel'), submit));
    const chosen = () => Number(radios.find((r) => r.checked)?.value || 0);
    // The confirmation only when lowering a case whose computed level is red.
    const follow = () => {
      const level = chosen();
      const needed = catalogue.loweringNeedsConfirmation(computed) && level > item.level;
      confirmBox.hidden = !needed && !confirmBox.dataset.asked;
      if (confirmBox.hidden) confirm.checked = false;
    };
    radios.forEach((radio) => radio.addEventListener('change', follow));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      clearErrors(form);
      const level = chosen();
      if (!level) { showErrors(form, [{ field: 'level', message: 'Choose the new level.' }]); radios.find((r) => !r.disabled)?.focus(); return; }
      const body = { level, reason: reason.value.trim() };
      if (!confirmBox.hidden) body.confirmLoweringRed = confirm.checked;
      await busy(submit, async () => {
        try {
          const assessment = await api.post(`/triage/assessments/${item.assessmentId}/override`, body);
          if (!alive) return;
          close();
          const said = `${name}: level set to ${levelWords(assessment.currentLevel ?? level)}`;
          toast(said, 'success');
          announce(said);
          await load();
        } catch (error) {
          if (error.status === 403) {
            showErrors(form, [{ field: 'level', message: error.detail }]);
            radios.find((r) => r.checked)?.focus();
          } else if (error.errors.length) {
            if (error.errors.some((e) => e.field === 'confirmLoweringRed')) { confirmBox.dataset.asked = 'true'; confirmBox.hidden = false; }
            showErrors(form, error.errors, { summary: result });
            const invalid = form.querySelector('[aria-invalid="true"]');
            (invalid === group ? radios.find((r) => r.checked) || radios.find((r) => !r.disabled) : invalid)?.focus();
          } else {
            result.hidden = false;
            replace(result, h('p', {}, error.status === 409
              ? `${error.message} The board has been reloaded; open the dialog again to override the latest assessment.` : error.message));
            if (error.status === 409) load();
          }
        }
      }, 'Saving…');
    });
    dialog.append(
      h('h2', { id: titleId }, `Override the level: ${name}`),
      h('p', {}, 'In force now: ', levelBadge(item.level),
        item.override ? ` (computed ${levelLabel(computed)})` : ' (computed)'),
      form);
    document.body.append(dialog);
    dialog.showModal();
    (radios.find((r) => !r.disabled) || reason).focus();
    return dialog;
  }

  async function move(button, patientId, status) {
    await busy(button, async () => {
      try {
        const entry = await api.post(`/triage/queue/${patientId}/status`, { status }, { queue: { subject: entries.get(patientId)?.patientName } });
        if (!alive) return;
        toast(`${entries.get(patientId)?.patientName || 'Patient'}: ${catalogue.boardStatusLabel(entry.status).toLowerCase()}`, 'success');
        await load();
      } catch (error) {
        // Offline: kept on the device and listed above the board as waiting to send.
        toast(error.queued ? `${entries.get(patientId)?.patientName || 'Patient'}: ${catalogue.boardStatusLabel(status).toLowerCase()} — waiting to send` : error.message, error.queued ? 'info' : 'error');
        await load();
      }
    }, 'Saving…');
  }

  // The countdowns run locally every second from each target time; the server's figures
  // are refreshed whenever the board changes.
  function tick() {
    const now = Date.now();
    clock.textContent = time(now);
    const messages = [];
    for (const [id, view] of cards) {
      const item = entries.get(id);
      if (!item) continue;
      const waiting = item.status === 'waiting';
      const seconds = Math.round((Date.parse(item.targetTime) - now) / 1000);
      const overdue = seconds < 0 && waiting;
      const abs = Math.abs(seconds);
      const text = `${Math.floor(abs / 60)}:${String(abs % 60).padStart(2, '0')}`;
      if (!waiting) view.countdown.textContent = `In treatment · waited from ${time(item.arrivalTime)}`;
      else view.countdown.textContent = overdue ? `Overdue by ${text}` : `${text} left`;
      view.card.classList.toggle('overdue', overdue);
      // The re-assessment: due (the server says so, or its time has come since), else when.
      const dueAt = item.reassessmentDueAt;
      const due = waiting && (item.reassessmentDue || (dueAt && Date.parse(dueAt) <= now));
      const reassessText = !waiting || !dueAt ? '' : due ? `Re-assess due ${time(dueAt)}` : `Re-assessment at ${time(dueAt)}`;
      if (view.reassess.textContent !== reassessText) view.reassess.textContent = reassessText;
      view.reassess.hidden = !reassessText;
      view.reassess.classList.toggle('reassess-due', Boolean(due));
      view.card.classList.toggle('reassessment-due', Boolean(due));
      const who = `${item.patientName || 'A patient'} (${levelLabel(item.level)})`;
      if (overdue && claim('overdue', id, item.targetTime)) messages.push(`${who} is overdue: target was ${time(item.targetTime)}.`);
      if (due && claim('reassess', id, dueAt)) messages.push(`${who} is due a re-assessment since ${time(dueAt)}.`);
    }
    if (messages.length) announce(messages.join(' '));
  }

  /** Whether a deadline is still to be announced; from now on it counts as announced. */
  function claim(kind, patientId, at) {
    const key = deadlineKey(kind, patientId, at);
    if (announced.has(key)) return false;
    announced.add(key);
    return true;
  }

  /** The board's deadlines as the server announces them on the live stream: spoken here once
   *  (the board's own clock may not have reached them yet), then the board reloads. */
  function fromStream(events) {
    const messages = [];
    for (const event of events) {
      const payload = event.payload || {};
      const id = payload.patientID;
      if (!id || (event.kind !== 'triage.patient_overdue' && event.kind !== 'triage.reassessment_due')) continue;
      const known = entries.get(id);
      const level = Number(payload.level) || known?.level;
      const who = `${known?.patientName || 'A patient'}${level ? ` (${levelLabel(level)})` : ''}`;
      if (event.kind === 'triage.patient_overdue' && payload.targetTime && claim('overdue', id, payload.targetTime)) {
        messages.push(`${who} is overdue: target was ${time(payload.targetTime)}.`);
      }
      if (event.kind === 'triage.reassessment_due' && payload.reassessmentDueAt && claim('reassess', id, payload.reassessmentDueAt)) {
        messages.push(`${who} is due a re-assessment since ${time(payload.reassessmentDueAt)}.`);
      }
    }
    if (messages.length) announce(messages.join(' '));
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

  const unsubscribe = live.subscribe(['triage.queue_changed', 'patient.triaged', 'patient.updated', 'patient.archived',
    'triage.level_overridden', 'triage.patient_overdue', 'triage.reassessment_due'], (events) => { fromStream(events); load(); });
  load();

  return () => {
    alive = false; clearInterval(ticker); unsubscribe();
    document.querySelectorAll('dialog.override-dialog').forEach((d) => { if (d.open) d.close(); d.remove(); });
  };
}

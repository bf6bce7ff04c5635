// Planning open requests with the schedule optimizer. Requests are gathered here (a patient,
// an appointment type, a triage level and, if it matters, a window); the optimizer proposes
// a plan around the bookings already made without booking anything (`apply: false`); after
// review the plan is booked (`apply: true`). Booking plans once more against the schedule as
// it is by then, so what was booked is shown beside what was proposed. The search takes the
// time it is given, shown as progress. Requests stay while the screen is left and revisited,
// for the person who gathered them, until the page is reloaded.

import * as api from '../api.js';
import * as live from '../live.js';
import {
  h, replace, field, select, notice, announce, toast, words, time, date, today, zonedInstant, minutesOf, rfc3339,
  levelBadge, levelWords, maxWait, dateTime, clearErrors, showErrors, uid, isoDate, zonedParts,
} from '../ui.js';
import * as catalogue from '../catalogue.js';
import { loadInto } from '../forms.js';

/** The open requests of the person signed in (kept while the page lives). */
const kept = { userId: null, requests: [], counter: 0 };

export function render(container, { session }) {
  let alive = true;
  if (kept.userId !== session.user.id) Object.assign(kept, { userId: session.user.id, requests: [], counter: 0 });
  const requests = kept.requests;
  let types = [];
  let chosen = null; // the patient picked for the next request
  let proposal = null; // {plan, body, stale}
  let running = null; // {controller, timer}

  // MARK: - The request form

  const patientInput = h('input', { type: 'search' });
  const patientResults = h('ul', { class: 'plain pick-list', 'aria-label': 'Matching patients' });
  const chosenBox = h('div', { class: 'chosen-patient', hidden: true });
  const typeSelect = select([], { blank: 'Choose a type' });
  const levelSelect = select(catalogue.levels().map(({ level, maxWaitMinutes }) =>
    [String(level), `${level} ${levelWords(level)}${maxWaitMinutes ? ` (within ${maxWaitMinutes} min)` : ' (at once)'}`]), { value: '4' });
  const earliest = h('input', { type: 'datetime-local', step: 300 });
  const deadline = h('input', { type: 'datetime-local', step: 300 });
  const add = h('button', { type: 'submit', class: 'button primary' }, 'Add the request');
  const requestForm = h('form', { class: 'stack-form request-form', novalidate: true },
    h('div', { class: 'combo' }, field('Patient', patientInput, { fieldName: 'patientId', hint: 'Name, owner, phone or record number' }), patientResults),
    chosenBox,
    h('div', { class: 'grid-fields' },
      field('Appointment type', typeSelect, { fieldName: 'appointmentTypeId' }),
      field('Triage level', levelSelect, { fieldName: 'triageLevel' }),
      field('Not before', earliest, { fieldName: 'earliestStart' }),
      field('Due by', deadline, { fieldName: 'deadline' })),
    h('p', { class: 'hint' }, 'Without a window a request may start now and is due within its level’s maximum wait.'),
    h('div', { class: 'form-errors', role: 'alert', hidden: true }),
    h('div', { class: 'row end' }, add));

  const requestList = h('div', { class: 'request-list' });

  // MARK: - Planning

  const fromInput = h('input', { type: 'date', value: today() });
  const daysInput = h('input', { type: 'number', min: 1, max: 14, step: 1, value: '3', inputmode: 'numeric' });
  const limitSelect = select([['1', '1 second'], ['2', '2 seconds'], ['5', '5 seconds'], ['10', '10 seconds']], { value: '2' });
  const propose = h('button', { type: 'submit', class: 'button primary' }, 'Propose a plan');
  const planForm = h('form', { class: 'plan-form', novalidate: true },
    h('div', { class: 'grid-fields' },
      field('Plan from', fromInput, { fieldName: 'from' }),
      field('Days', daysInput, { fieldName: 'days', unit: 'days' }),
      field('Search time', limitSelect, { fieldName: 'timeLimitSeconds' })),
    h('div', { class: 'row end' }, propose));
  const progress = h('div', { class: 'plan-progress', role: 'status' });
  const planBox = h('div', { class: 'plan-result' });

  replace(container, h('section', { class: 'screen optimizer', 'aria-labelledby': 'optimizer-title' },
    h('header', { class: 'screen-header' },
      h('h1', { id: 'optimizer-title' }, 'Plan open requests'),
      h('a', { class: 'button', href: `#/schedule?date=${today()}` }, h('span', { 'aria-hidden': 'true' }, '‹ '), 'Schedule')),
    h('p', { class: 'muted' }, 'The optimizer places the requests around the bookings already made. Nothing is booked until you book the plan.'),
    h('div', { class: 'optimizer-layout' },
      h('div', {},
        h('section', { class: 'panel glass', 'aria-labelledby': 'requests-title' }, h('h2', { id: 'requests-title' }, 'Open requests'), requestList),
        h('section', { class: 'panel glass', 'aria-labelledby': 'add-title' }, h('h2', { id: 'add-title' }, 'Add a request'), requestForm)),
      h('section', { class: 'panel glass', 'aria-labelledby': 'plan-title' },
        h('h2', { id: 'plan-title' }, 'Plan'), planForm, progress, planBox))));

  // Finding the patient as you type.
  let searchTimer = null;
  let searchToken = 0;
  patientInput.addEventListener('input', () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(async () => {
      const text = patientInput.value.trim();
      const token = ++searchToken;
      if (!text) { replace(patientResults); return; }
      try {
        const page = await api.get('/patients', { q: text, limit: 6, status: 'active' });
        if (!alive || token !== searchToken) return;
        replace(patientResults, page.items.length ? page.items.map((item) => h('li', {}, h('button', {
          type: 'button', class: 'button wide pick', dataset: { patient: item.patient.id },
          on: { click: () => choose(item) },
        }, `${item.patient.name} (${words(item.patient.species)}) · ${item.ownerName}`))) : h('li', { class: 'muted' }, 'No patient matches.'));
      } catch (error) { if (alive) replace(patientResults, h('li', {}, error.message)); }
    }, 200);
  });

  function choose(item) {
    // With the owner: two patients of the practice may share a name.
    chosen = { id: item.patient.id, name: `${item.patient.name} (${words(item.patient.species)}, ${item.ownerName})` };
    replace(patientResults);
    patientInput.value = '';
    replace(chosenBox, h('span', {}, h('strong', {}, chosen.name)),
      h('button', { type: 'button', class: 'button quiet', on: { click: () => { chosen = null; chosenBox.hidden = true; patientInput.focus(); } } }, 'Change'));
    chosenBox.hidden = false;
    typeSelect.focus();
  }

  requestForm.addEventListener('submit', (event) => {
    event.preventDefault();
    clearErrors(requestForm);
    const errors = [];
    if (!chosen) errors.push({ field: 'patientId', message: 'Choose the patient.' });
    if (!typeSelect.value) errors.push({ field: 'appointmentTypeId', message: 'Choose the appointment type.' });
    if (!levelSelect.value) errors.push({ field: 'triageLevel', message: 'No level can be chosen: the triage catalogue could not be loaded.' });
    const from = earliest.value ? local(earliest.value) : null;
    const due = deadline.value ? local(deadline.value) : null;
    if (from && due && Date.parse(due) <= Date.parse(from)) errors.push({ field: 'deadline', message: 'must be after “Not before”.' });
    if (errors.length) { showErrors(requestForm, errors); return; }
    kept.counter += 1;
    requests.push({
      reference: `r${kept.counter}`, patientId: chosen.id, patientName: chosen.name, appointmentTypeId: typeSelect.value,
      triageLevel: Number(levelSelect.value), earliestStart: from || undefined, deadline: due || undefined,
    });
    announce(`${chosen.name} added; ${requests.length} open request${requests.length === 1 ? '' : 's'}.`);
    chosen = null;
    chosenBox.hidden = true;
    earliest.value = '';
    deadline.value = '';
    drawRequests();
    patientInput.focus();
  });

  /** "2026-11-24T09:30" in the practice's zone → an RFC 3339 instant. */
  function local(value) {
    const [day, clock] = value.split('T');
    return rfc3339(zonedInstant(day, minutesOf(clock)));
  }

  function typeName(id) { return types.find((t) => t.id === id)?.name || 'Appointment'; }

  function windowText(r) {
    if (!r.earliestStart && !r.deadline) {
      const wait = maxWait(r.triageLevel);
      return wait === null ? 'within its level’s maximum wait' : `within ${wait} min of planning`;
    }
    return [r.earliestStart ? `from ${dateTime(r.earliestStart)}` : null, r.deadline ? `due by ${dateTime(r.deadline)}` : null].filter(Boolean).join(', ');
  }

  function drawRequests(errors = []) {
    const byIndex = new Map();
    for (const e of errors) {
      const match = /^requests\[(\d+)\]\.?(.*)$/.exec(e.field || '');
      if (match) byIndex.set(Number(match[1]), [...(byIndex.get(Number(match[1])) || []), `${words(match[2]) || 'Request'}: ${e.message}`]);
    }
    replace(requestList, requests.length ? h('ul', { class: 'plain entries requests' }, requests.map((r, index) => h('li', { class: 'request', dataset: { reference: r.reference } },
      h('div', { class: 'row spread' },
        h('div', {},
          h('strong', {}, r.patientName), ` · ${typeName(r.appointmentTypeId)} `, levelBadge(r.triageLevel),
          h('p', { class: 'muted request-window' }, windowText(r))),
        h('button', {
          type: 'button', class: 'button quiet', 'aria-label': `Remove ${r.patientName}`,
          on: { click: () => { requests.splice(requests.indexOf(r), 1); drawRequests(); if (!requests.length) propose.focus(); } },
        }, 'Remove')),
      byIndex.has(index) ? h('p', { class: 'field-error' }, byIndex.get(index).join('; ')) : null)))
      : h('p', { class: 'empty-state' }, 'No open requests yet. Add the patients who need an appointment.'));
    propose.disabled = !requests.length || Boolean(running);
  }

  // MARK: - Proposing and booking

  planForm.addEventListener('submit', (event) => {
    event.preventDefault();
    clearErrors(planForm);
    const days = Number(daysInput.value);
    if (!fromInput.value || !Number.isInteger(days) || days < 1 || days > 14) {
      showErrors(planForm, [!fromInput.value ? { field: 'from', message: 'is required' } : { field: 'days', message: 'must be a whole number from 1 to 14' }]);
      return;
    }
    const body = {
      from: rfc3339(zonedInstant(fromInput.value, 0)), days, timeLimitSeconds: Number(limitSelect.value),
      seed: Math.floor(Math.random() * 1e9), // the same seed for the preview and the booking
      requests: requests.map(({ patientName, ...r }) => r),
    };
    run(body, false);
  });

  /** Runs the optimizer with progress; `apply` books the plan. */
  async function run(body, apply) {
    if (running) return;
    const controller = new AbortController();
    const started = performance.now();
    const seconds = body.timeLimitSeconds;
    const bar = h('progress', { max: String(seconds * 1000), value: '0', 'aria-label': apply ? 'Booking the plan' : 'Searching for a plan' });
    const text = h('span', {});
    const stop = apply ? null : h('button', { type: 'button', class: 'button quiet', on: { click: () => controller.abort() } }, 'Stop waiting');
    const tick = () => {
      const elapsed = performance.now() - started;
      bar.value = Math.min(elapsed, seconds * 1000);
      text.textContent = elapsed < seconds * 1000
        ? `${apply ? 'Planning again and booking' : 'Searching'}… ${(elapsed / 1000).toFixed(1)} s of about ${seconds} s`
        : `${apply ? 'Booking the appointments' : 'Finishing the plan'}… ${(elapsed / 1000).toFixed(1)} s`;
    };
    running = { controller, apply, timer: setInterval(tick, 100) };
    tick();
    replace(progress, h('div', { class: 'row wrap' }, bar, text, stop));
    propose.disabled = true;
    propose.setAttribute('aria-busy', 'true');
    planBox.querySelectorAll('button').forEach((b) => { b.disabled = true; });
    if (apply) planBox.setAttribute('aria-busy', 'true');
    try {
      const plan = await api.post('/schedule/optimize', { ...body, apply }, { signal: controller.signal });
      // Booked requests are no longer open, even when the screen was left meanwhile.
      if (apply) forgetBooked(plan);
      if (!alive) return;
      if (apply) booked(plan, body); else { proposal = { plan, body, stale: false }; drawPlan(); }
      announce(apply ? `${plan.plan.filter((p) => p.appointmentId).length} appointments booked.` : `Plan proposed: ${plan.assigned} of ${body.requests.length} placed.`);
    } catch (error) {
      if (!alive) return;
      if (error.name === 'AbortError') { replace(planBox, h('p', { class: 'muted' }, 'Stopped waiting; nothing was booked.')); return; }
      if (error.errors.length) {
        drawRequests(error.errors.filter((e) => e.field?.startsWith('requests')));
        showErrors(planForm, error.errors.filter((e) => !e.field?.startsWith('requests')));
      }
      replace(planBox, notice(error.status === 403 ? `${error.message} (booking a plan needs the right to book appointments)` : error.message));
      if (proposal && !apply) proposal = null;
    } finally {
      if (running) clearInterval(running.timer);
      running = null;
      if (alive) {
        replace(progress);
        propose.removeAttribute('aria-busy');
        propose.disabled = !requests.length;
        planBox.removeAttribute('aria-busy');
        planBox.querySelectorAll('button').forEach((b) => { b.disabled = false; });
      }
    }
  }

  /** Names of the requests sent, which stay known after the booked ones leave the list. */
  const names = new Map();
  function forgetBooked(result) {
    for (const p of result.plan.filter((x) => x.appointmentId)) {
      const i = kept.requests.findIndex((r) => r.reference === p.reference);
      if (i >= 0) { names.set(p.reference, kept.requests[i].patientName); kept.requests.splice(i, 1); }
    }
  }

  function requestOf(reference, body) { return (body || proposal?.body)?.requests.find((r) => r.reference === reference); }
  function nameOf(reference) { return kept.requests.find((r) => r.reference === reference)?.patientName || names.get(reference) || reference; }

  /** The plan grouped by clinician: each appointment with its time and whether it is on time. */
  function planList(plan, body, extra = () => null) {
    const byClinician = new Map();
    for (const item of plan.plan) {
      const key = item.clinicianId;
      if (!byClinician.has(key)) byClinician.set(key, { name: item.clinicianName || 'Clinician', items: [] });
      byClinician.get(key).items.push(item);
    }
    return h('ul', { class: 'card-grid plan-clinicians' }, [...byClinician.values()].sort((a, b) => a.name.localeCompare(b.name)).map((group) => {
      const headingId = uid('plan-clinician');
      return h('li', { class: 'panel plan-clinician', 'aria-labelledby': headingId },
        h('h3', { id: headingId }, group.name, h('span', { class: 'muted' }, ` · ${group.items.length}`)),
        h('ol', { class: 'plain entries' }, group.items.map((item) => {
          const request = requestOf(item.reference, body);
          return h('li', { class: 'planned', dataset: { reference: item.reference, start: item.start, clinician: item.clinicianId } },
            h('div', {}, h('strong', { class: 'slot-time' }, `${date(item.start)} ${time(item.start)}–${time(item.end)}`)),
            h('div', {}, h('strong', {}, nameOf(item.reference)), ` · ${typeName(request?.appointmentTypeId)} `, request ? levelBadge(request.triageLevel) : null),
            h('span', { class: ['chip', item.onTime ? 'chip-ok' : 'chip-warning'] }, item.onTime ? 'On time' : 'Late: after its due time'),
            extra(item));
        })));
    }));
  }

  function summary(plan, count) {
    return h('dl', { class: 'facts plan-summary' },
      h('dt', {}, 'Placed'), h('dd', {}, `${plan.assigned} of ${count}`),
      h('dt', {}, 'On time'), h('dd', {}, `${plan.onTime} of ${plan.assigned}`),
      h('dt', {}, 'Score'), h('dd', {}, `${plan.score.toFixed(3)} `, h('span', { class: 'muted' }, '(0 to 1, higher is better: urgency met, preferences, balanced days)')),
      h('dt', {}, 'Search'), h('dd', {}, `${(plan.elapsedMilliseconds / 1000).toFixed(1)} s`));
  }

  function unassignedList(plan) {
    return plan.unassigned.length ? h('div', { class: 'notice notice-warning unassigned' },
      h('strong', {}, 'Not placed'), h('ul', {}, plan.unassigned.map((ref) => h('li', {}, `${nameOf(ref)}: no free time with a suitable clinician and room in the days planned`)))) : null;
  }

  function drawPlan() {
    const { plan, body, stale } = proposal;
    const canBook = session.can('book');
    const book = h('button', { type: 'button', class: 'button primary large', on: { click: () => run(body, true) } }, `Book ${plan.plan.length} appointment${plan.plan.length === 1 ? '' : 's'}`);
    replace(planBox,
      h('h3', { class: 'plan-heading' }, 'Proposed plan (not booked)'),
      stale ? h('p', { class: 'notice notice-warning', role: 'status' }, 'The schedule has changed since this plan was proposed. Booking plans again against it, so what is booked may differ; propose again to review it first.') : null,
      summary(plan, body.requests.length),
      unassignedList(plan),
      plan.plan.length ? planList(plan, body) : h('p', {}, 'Nothing could be placed.'),
      plan.plan.length ? (canBook ? h('div', { class: 'row end' }, h('p', { class: 'muted' }, 'Booking plans once more with the same settings and books what it places.'), book)
        : h('p', { class: 'muted' }, 'Booking a plan needs the right to book appointments.')) : null);
  }

  function booked(result, body) {
    const before = new Map((proposal?.plan.plan || []).map((p) => [p.reference, p]));
    const done = result.plan.filter((p) => p.appointmentId);
    const label = (ref) => names.get(ref) || nameOf(ref);
    replace(planBox,
      h('h3', { class: 'plan-heading' }, 'Booked'),
      h('p', { class: ['notice', done.length === result.plan.length ? 'notice-success' : 'notice-warning'], role: 'status' },
        `${done.length} of ${body.requests.length} request${body.requests.length === 1 ? '' : 's'} booked.`),
      summary(result, body.requests.length),
      result.unassigned.length ? h('div', { class: 'notice notice-warning unassigned' }, h('strong', {}, 'Not placed, still open'),
        h('ul', {}, result.unassigned.map((ref) => h('li', {}, label(ref))))) : null,
      result.plan.length ? planList(result, body, (item) => {
        const was = before.get(item.reference);
        const changed = was && (was.start !== item.start || was.clinicianId !== item.clinicianId);
        return [
          item.appointmentId ? h('span', { class: 'chip chip-ok booked-flag' }, 'Booked') : h('p', { class: 'field-error' }, `Not booked: ${item.bookingError || 'refused'}`),
          changed ? h('p', { class: 'muted' }, `Proposed was ${date(was.start)} ${time(was.start)} with ${was.clinicianName || 'another clinician'}.`) : null,
          item.appointmentId ? h('a', { href: `#/schedule?date=${isoDate(zonedParts(item.start))}` }, 'Show on the schedule') : null,
        ];
      }) : null);
    proposal = null;
    drawRequests();
    toast(`${done.length} appointment${done.length === 1 ? '' : 's'} booked`, done.length ? 'success' : 'error');
  }


  function start() {
    return loadInto(requestList, () => api.get('/appointment-types'), ({ items }) => {
      types = items;
      replace(typeSelect, h('option', { value: '' }, 'Choose a type'), types.map((t) => h('option', { value: t.id }, `${t.name} (${t.defaultDurationMinutes} min)`)));
      drawRequests();
    }, { alive: () => alive });
  }

  // A proposal is made against the schedule of its moment: say so when the schedule changes.
  const unsubscribe = live.subscribe(['appointment.*', 'schedule.*', 'clinician.availability_changed'], () => {
    if (proposal && !running && !proposal.stale) { proposal.stale = true; drawPlan(); }
  });
  drawRequests();
  start();

  return () => {
    alive = false;
    unsubscribe();
    clearTimeout(searchTimer);
    if (running) { clearInterval(running.timer); if (!running.apply) running.controller.abort(); }
  };
}

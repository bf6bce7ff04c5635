// A patient's record: alerts and allergies first, then weight (with its chart), medications
// with dose calculation from the latest weight, problems, vaccinations due, visits, SOAP notes
// with addenda, documents, triage history and appointments. Reception edits the patient's and
// the owner's details here (record-edit.js); a clinician starts a consultation from here.

import * as api from '../api.js';
import * as live from '../live.js';
import {
  h, replace, field, select, notice, toast, announce, words, date, dateTime, plainDate, time, today, showErrors,
  levelBadge, uid, problemText,
} from '../ui.js';
import { act, loadInto, submitForm } from '../forms.js';
import { weightChart } from './weight-chart.js';
import { editOwner, editPatient } from './record-edit.js';
import { describeVitals } from './vitals.js';
import { correctionActions, retractedItems, medicationEnd } from './record-corrections.js';
import { pendingPanel } from '../offline/outbox.js';
import { vaccineProposals } from './record-vaccines.js';
import { prescribedText } from './consult-prescriptions.js';

const ROUTES = ['oral', 'subcutaneous', 'intramuscular', 'intravenous', 'topical', 'ophthalmic', 'otic', 'intranasal', 'inhaled', 'rectal', 'transdermal'];

export function render(container, { params, session }) {
  let alive = true;
  const patientId = params.id;
  let record = null;
  let owner = null;
  let ownChangeUntil = 0;
  /** Medication id → the day of the visit that prescribed it (from the visits' plans). */
  const prescribedAt = new Map();
  const canClinical = session.can('writeClinical');
  const canWrite = session.can('writeRecords');
  /** The correction buttons of one entry (record-corrections.js). */
  const fix = (entryType, entry) => correctionActions(entryType, entry, { patientId, session, onCorrected: corrected });
  /** The entries of a kind entered in error or refuted, struck through (never hidden). */
  const struck = (entryType) => retractedItems(record, entryType, session);

  const headerBox = h('div', { class: 'record-header' }, h('h1', { id: 'record-title' }, 'Patient record'));
  const alertBox = h('div', { class: 'record-alerts' });
  const message = h('div');
  const sections = {
    weight: section('Weight', 'weight'),
    medications: section('Medications', 'medications'),
    problems: section('Problems', 'problems'),
    allergies: section('Allergies', 'allergies'),
    vaccinations: section('Vaccinations', 'vaccinations'),
    visits: section('Visits', 'visits'),
    notes: section('Clinical notes', 'notes'),
    documents: section('Documents', 'documents'),
    triage: section('Triage history', 'triage'),
    appointments: section('Appointments', 'appointments'),
  };
  replace(container, h('article', { class: 'screen record', 'aria-labelledby': 'record-title' },
    h('p', {}, h('a', { class: 'back-link', href: '#/patients' }, h('span', { 'aria-hidden': 'true' }, '‹ '), 'All patients')),
    headerBox, alertBox, message,
    pendingPanel((e) => e.path.startsWith(`/patients/${patientId}`) || (owner && e.path === `/owners/${owner.id}`)
      || (e.path === '/triage/assessments' && e.body?.patientId === patientId)),
    h('div', { class: 'record-grid' }, Object.values(sections).map((s) => s.element))));

  function section(title, key) {
    const id = uid(`sec-${key}`);
    const body = h('div', { class: 'section-body' }, h('p', { class: 'muted' }, 'Loading…'));
    const element = h('section', { class: ['panel', 'glass', `record-${key}`], 'aria-labelledby': id }, h('h2', { id }, title), body);
    return { element, body };
  }

  function load() {
    return loadInto(message, async () => {
      const data = await api.get(`/patients/${encodeURIComponent(patientId)}/record`);
      if (!alive) return null;
      const ownerId = data.patient.ownerId;
      const ownerNow = owner && owner.id === ownerId ? owner : await api.get(`/owners/${ownerId}`).catch(() => null);
      return { data, ownerNow };
    }, ({ data, ownerNow }) => {
      record = data;
      owner = ownerNow;
      replace(message);
      drawHeader();
      drawWeight();
      drawMedications();
      drawProblems();
      drawAllergies();
      drawVaccinations();
      drawNotes();
      loadVisits();
      loadDocuments();
      loadTriage();
      loadAppointments();
    }, { alive: () => alive, message: (error) => (error.status === 404 ? 'There is no such patient in this practice.' : problemText(error)) });
  }

  function drawHeader() {
    const p = record.patient;
    document.title = `${p.name} · VetNet`;
    const hadFocus = headerBox.contains(document.activeElement);
    replace(headerBox,
      h('div', { class: 'row spread wrap' },
        h('div', {},
          h('h1', { id: 'record-title', tabindex: '-1' }, p.name, p.status !== 'active' ? h('span', { class: 'chip' }, ` ${words(p.status)}`) : null),
          h('p', { class: 'record-facts' }, [words(p.species), p.breed, p.sex ? words(p.sex) : null, p.age, p.colour].filter(Boolean).join(' · ')),
          h('p', { class: 'muted' }, `${p.medicalRecordNumber}${p.microchip ? ` · microchip ${p.microchip}` : ''}${p.birthDate ? ` · born ${plainDate(p.birthDate)}${p.birthDateEstimated ? ' (estimated)' : ''}` : ''}`)),
        h('div', { class: 'owner-card' },
          h('h2', { class: 'small-heading' }, 'Owner'),
          owner ? [h('p', {}, h('strong', {}, `${owner.firstName} ${owner.lastName}`)),
            (owner.phones || []).map((ph) => h('p', { class: 'contact' }, `${words(ph.label)}: `, h('a', { class: 'contact-link', href: `tel:${ph.number.replace(/[^+\d]/g, '')}` }, ph.number))),
            owner.email ? h('p', { class: 'contact' }, h('a', { class: 'contact-link', href: `mailto:${owner.email}` }, owner.email)) : null,
            canWrite ? h('button', { type: 'button', class: 'button', dataset: { action: 'edit-owner' }, on: { click: (e) => editOwner(owner.id, { opener: e.currentTarget, onSaved: () => { owner = null; load(); } }) } }, 'Edit owner') : null]
            : h('p', { class: 'muted' }, 'Not available')),
        h('div', { class: 'record-actions' },
          canClinical ? h('a', { class: 'button primary', href: `#/consult?patient=${p.id}&from=record` }, 'Start a consultation') : null,
          session.can('triage') ? h('a', { class: ['button', !canClinical && 'primary'], href: `#/intake?patient=${p.id}` }, 'Triage this patient') : null,
          session.can('book') && p.status === 'active' ? h('a', { class: 'button', href: `#/schedule?patient=${p.id}`, dataset: { action: 'book' } }, 'Book appointment') : null,
          canWrite ? h('button', { type: 'button', class: 'button', dataset: { action: 'edit-patient' }, on: { click: (e) => editPatient(p.id, { opener: e.currentTarget, onSaved: () => load() }) } }, 'Edit patient') : null)));
    if (hadFocus) document.getElementById('record-title')?.focus();
    const alerts = p.alerts || [];
    const severe = record.allergies.filter((a) => a.severity === 'severe' || a.severity === 'life_threatening');
    replace(alertBox, alerts.length || record.allergies.length ? h('section', { class: 'alert-banner', 'aria-labelledby': 'alerts-title' },
      h('h2', { id: 'alerts-title' }, h('span', { 'aria-hidden': 'true' }, '⚠ '), 'Alerts'),
      h('ul', {}, alerts.map((a) => h('li', {}, a)),
        record.allergies.map((a) => h('li', {}, `Allergy: ${a.substance} (${words(a.severity)})${a.reaction ? ` — ${a.reaction}` : ''}`)))) : null);
    if (severe.length) announce(`${p.name} has ${severe.length} severe allerg${severe.length === 1 ? 'y' : 'ies'}`);
  }

  // MARK: - Weight

  function drawWeight() {
    const weights = [...record.weights].sort((a, b) => a.measuredAt.localeCompare(b.measuredAt));
    const latest = record.latestWeight;
    const value = h('input', { type: 'number', step: 'any', min: 0, inputmode: 'decimal', required: true });
    const unit = select([['kg', 'kg'], ['g', 'g'], ['lb', 'lb']], { 'aria-label': 'Weight unit' });
    unit.dataset.field = 'unit';
    const form = canWrite ? h('form', { class: 'inline-form', novalidate: true },
      field('New weight', value, { fieldName: 'value', unit }),
      h('button', { type: 'submit', class: 'button' }, 'Record weight'),
      h('div', { class: 'form-errors', role: 'alert', hidden: true })) : null;
    form?.addEventListener('submit', (event) => submitEntry(event, form, 'weights', () => ({ value: Number(value.value), unit: unit.value }), 'Weight recorded'));
    const gone = struck('weight');
    const readings = [...weights].reverse().map((w) => h('li', { class: 'row spread wrap', dataset: { weight: w.id } },
      h('span', {}, `${w.value} ${w.unit}`, w.unit !== 'kg' ? h('span', { class: 'muted' }, ` (${formatKg(w.grams)} kg)`) : null, h('span', { class: 'muted' }, ` · ${dateTime(w.measuredAt)}`)),
      fix('weight', w)));
    replace(sections.weight.body,
      latest ? h('p', { class: 'big-figure' }, `${formatKg(latest.grams)} kg`, h('span', { class: 'muted' }, ` on ${dateTime(latest.measuredAt)}`)) : h('p', { class: 'muted' }, 'No weight recorded yet.'),
      weights.length ? weightChart(weights, `${record.patient.name}’s weight`) : null,
      readings.length || gone.length ? h('details', { class: 'weight-readings', open: gone.length > 0 || undefined },
        h('summary', {}, `All weights (${weights.length})`), h('ul', { class: 'plain entries weight-list' }, readings, gone)) : null,
      form);
  }

  // MARK: - Medications and doses

  function drawMedications() {
    const list = record.medications;
    const items = list.map((m) => {
      const output = h('p', { class: 'dose-result', 'aria-live': 'polite' });
      const button = h('button', { type: 'button', class: 'button', 'aria-label': `Calculate the dose of ${m.drug}` }, 'Calculate dose');
      button.addEventListener('click', () => act(button, async () => {
        const dose = await api.get(`/patients/${patientId}/medications/${m.id}/dose`);
        replace(output, h('strong', {}, `${trim(dose.doseMg)} mg = ${trim(dose.volumeML)} mL`),
          ` (${m.doseMgPerKg} mg/kg × ${trim(dose.weightKg)} kg weighed ${date(dose.weightMeasuredAt)}; ${m.concentrationMgPerML} mg/mL)`);
        output.classList.remove('notice-error');
      }, {
        label: 'Calculating…',
        // The result line itself says why (a paragraph holds no notice).
        handle: (error) => { replace(output, problemText(error)); output.classList.add('notice-error'); return true; },
      }));
      return h('li', { class: 'med' },
        h('div', { class: 'row spread wrap' },
          h('div', {}, h('strong', {}, m.drug), ` ${m.doseMgPerKg} mg/kg · ${m.concentrationMgPerML} mg/mL · ${words(m.route)} · ${m.frequency}`,
            h('br'), h('span', { class: 'muted' }, `from ${plainDate(m.startDate)}`),
            prescribedAt.has(m.id) ? h('span', { class: 'muted from-visit' }, ` · from visit of ${date(prescribedAt.get(m.id))}`) : null,
            m.endDate ? h('span', { class: 'med-end' }, ` · ended ${plainDate(m.endDate)}${medicationEnd(record, m) ? ` (${medicationEnd(record, m)})` : ''}`) : null),
          m.endDate ? null : button),
        output,
        fix('medication', m));
    });
    const drug = h('input', { type: 'text', required: true });
    const concentration = h('input', { type: 'number', step: 'any', min: 0, inputmode: 'decimal' });
    const dose = h('input', { type: 'number', step: 'any', min: 0, inputmode: 'decimal' });
    const route = select(ROUTES.map((r) => [r, words(r)]), { value: 'oral' });
    const frequency = h('input', { type: 'text', placeholder: 'e.g. every 12 hours' });
    const startDate = h('input', { type: 'date', value: today() });
    const form = canClinical ? details('Prescribe a medication', h('form', { class: 'stack-form', novalidate: true },
      h('div', { class: 'grid-fields' },
        field('Drug', drug, { fieldName: 'drug' }),
        field('Concentration', concentration, { fieldName: 'concentrationMgPerML', unit: 'mg/mL' }),
        field('Dose', dose, { fieldName: 'doseMgPerKg', unit: 'mg/kg' }),
        field('Route', route, { fieldName: 'route' }),
        field('Frequency', frequency, { fieldName: 'frequency' }),
        field('Start', startDate, { fieldName: 'startDate' })),
      h('div', { class: 'form-errors', role: 'alert', hidden: true }),
      h('button', { type: 'submit', class: 'button' }, 'Prescribe'))) : null;
    form?.querySelector('form').addEventListener('submit', (event) => submitEntry(event, event.currentTarget, 'medications', () => ({
      drug: drug.value.trim(), concentrationMgPerML: numberOrText(concentration), doseMgPerKg: numberOrText(dose), route: route.value,
      frequency: frequency.value.trim(), startDate: startDate.value,
    }), 'Medication prescribed'));
    const gone = struck('medication');
    replace(sections.medications.body, list.length || gone.length ? h('ul', { class: 'plain entries' }, items, gone) : h('p', { class: 'muted' }, 'No medications.'), form);
  }

  // MARK: - Problems and allergies

  function drawProblems() {
    const name = h('input', { type: 'text' });
    const status = select([['active', 'Active'], ['resolved', 'Resolved']]);
    const onset = h('input', { type: 'date' });
    const form = canClinical ? details('Add a problem', h('form', { class: 'stack-form', novalidate: true },
      h('div', { class: 'grid-fields' }, field('Problem', name, { fieldName: 'name' }), field('Status', status, { fieldName: 'status' }), field('Onset', onset, { fieldName: 'onsetDate' })),
      h('div', { class: 'form-errors', role: 'alert', hidden: true }), h('button', { type: 'submit', class: 'button' }, 'Add problem'))) : null;
    form?.querySelector('form').addEventListener('submit', (event) => submitEntry(event, event.currentTarget, 'problems',
      () => ({ name: name.value.trim(), status: status.value, onsetDate: onset.value || undefined }), 'Problem added'));
    const gone = struck('problem');
    replace(sections.problems.body, record.problems.length || gone.length ? h('ul', { class: 'plain entries' }, record.problems.map((p) => h('li', { dataset: { problem: p.id } },
      h('strong', {}, p.name), ` · ${words(p.status || 'active')}`, p.onsetDate ? ` · since ${plainDate(p.onsetDate)}` : '', p.resolvedDate ? ` · resolved ${plainDate(p.resolvedDate)}` : '',
      fix('problem', p))), gone)
      : h('p', { class: 'muted' }, 'No problems recorded.'), form);
  }

  function drawAllergies() {
    const substance = h('input', { type: 'text' });
    const reaction = h('input', { type: 'text' });
    const severity = select(['mild', 'moderate', 'severe', 'life_threatening'].map((s) => [s, words(s)]));
    const form = canClinical ? details('Add an allergy', h('form', { class: 'stack-form', novalidate: true },
      h('div', { class: 'grid-fields' }, field('Substance', substance, { fieldName: 'substance' }), field('Reaction', reaction, { fieldName: 'reaction' }), field('Severity', severity, { fieldName: 'severity' })),
      h('div', { class: 'form-errors', role: 'alert', hidden: true }), h('button', { type: 'submit', class: 'button' }, 'Add allergy'))) : null;
    form?.querySelector('form').addEventListener('submit', (event) => submitEntry(event, event.currentTarget, 'allergies',
      () => ({ substance: substance.value.trim(), reaction: reaction.value.trim() || undefined, severity: severity.value }), 'Allergy added'));
    const gone = struck('allergy');
    replace(sections.allergies.body, record.allergies.length || gone.length ? h('ul', { class: 'plain entries' }, record.allergies.map((a) => h('li', { dataset: { allergy: a.id } },
      h('strong', {}, a.substance), ` · ${words(a.severity)}`, a.reaction ? ` · ${a.reaction}` : '', fix('allergy', a))), gone)
      : h('p', { class: 'muted' }, 'No known allergies.'), form);
  }

  // MARK: - Vaccinations

  function drawVaccinations() {
    const now = today();
    const soon = addDaysText(now, 30);
    const rows = [...record.vaccinations].sort((a, b) => (b.administeredDate || '').localeCompare(a.administeredDate || ''));
    const vaccine = h('input', { type: 'text' });
    const given = h('input', { type: 'date', value: now });
    const batch = h('input', { type: 'text' });
    const due = h('input', { type: 'date' });
    const form = canWrite ? details('Record a vaccination', h('form', { class: 'stack-form', novalidate: true },
      h('div', { class: 'grid-fields' }, field('Vaccine', vaccine, { fieldName: 'vaccine' }), field('Given on', given, { fieldName: 'administeredDate' }),
        field('Batch', batch, { fieldName: 'batchNumber' }), field('Next due', due, { fieldName: 'nextDueDate' })),
      h('div', { class: 'form-errors', role: 'alert', hidden: true }), h('button', { type: 'submit', class: 'button' }, 'Record vaccination'))) : null;
    form?.querySelector('form').addEventListener('submit', (event) => submitEntry(event, event.currentTarget, 'vaccinations',
      () => ({ vaccine: vaccine.value.trim(), administeredDate: given.value, batchNumber: batch.value.trim() || undefined, nextDueDate: due.value || undefined }), 'Vaccination recorded'));
    if (form) due.closest('.field').append(vaccineProposals(record.patient, { vaccine, given, due }));
    const gone = struck('vaccination');
    replace(sections.vaccinations.body, rows.length || gone.length ? h('ul', { class: 'plain entries' }, rows.map((v) => {
      let state = null;
      if (v.nextDueDate && v.nextDueDate < now) state = h('span', { class: 'chip chip-alert' }, 'Overdue');
      else if (v.nextDueDate && v.nextDueDate <= soon) state = h('span', { class: 'chip chip-warning' }, 'Due soon');
      return h('li', { dataset: { vaccination: v.id } }, h('strong', {}, v.vaccine), ` · given ${plainDate(v.administeredDate)}`, v.batchNumber ? ` · batch ${v.batchNumber}` : '',
        v.nextDueDate ? ` · next due ${plainDate(v.nextDueDate)} ` : ' ', state, fix('vaccination', v));
    }), gone) : h('p', { class: 'muted' }, 'No vaccinations recorded.'), form);
  }

  // MARK: - Notes

  function drawNotes() {
    const parts = ['subjective', 'objective', 'assessment', 'plan'];
    const inputs = Object.fromEntries(parts.map((p) => [p, h('textarea', { rows: 2 })]));
    const form = canClinical ? details('Write a SOAP note', h('form', { class: 'stack-form', novalidate: true },
      parts.map((p) => field(words(p), inputs[p], { fieldName: p, wide: true })),
      h('div', { class: 'form-errors', role: 'alert', hidden: true }), h('button', { type: 'submit', class: 'button' }, 'Add note'))) : null;
    form?.querySelector('form').addEventListener('submit', (event) => submitEntry(event, event.currentTarget, 'notes',
      () => Object.fromEntries(parts.filter((p) => inputs[p].value.trim()).map((p) => [p, inputs[p].value])), 'Note added'));
    const notes = [...record.notes].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    const gone = struck('note');
    replace(sections.notes.body, form, notes.length || gone.length ? h('ol', { class: 'plain notes' }, notes.map((n) => {
      const addendum = h('textarea', { rows: 2 });
      const addForm = canClinical ? details('Add an addendum', h('form', { class: 'stack-form', novalidate: true },
        field('Addendum', addendum, { fieldName: 'text', wide: true }), h('div', { class: 'form-errors', role: 'alert', hidden: true }),
        h('button', { type: 'submit', class: 'button' }, 'Add addendum'))) : null;
      addForm?.querySelector('form').addEventListener('submit', (event) => submitEntry(event, event.currentTarget, `notes/${n.id}/addenda`,
        () => ({ text: addendum.value }), 'Addendum added'));
      return h('li', { class: 'note' },
        h('p', { class: 'muted' }, `${dateTime(n.createdAt)} · ${n.authorName}`),
        h('dl', { class: 'soap' }, parts.filter((p) => n[p]).map((p) => [h('dt', {}, p[0].toUpperCase()), h('dd', {}, n[p])])),
        n.addenda.length ? h('ul', { class: 'addenda' }, n.addenda.map((a) => h('li', {}, h('span', { class: 'muted' }, `Addendum ${dateTime(a.createdAt)} · ${a.authorName}: `), a.text))) : null,
        addForm, fix('note', n));
    }), gone) : h('p', { class: 'muted' }, 'No notes yet.'));
  }

  // MARK: - Visits

  function loadVisits() {
    return loadInto(sections.visits.body, () => api.get(`/patients/${encodeURIComponent(patientId)}/visits`), ({ items }) => {
      const known = prescribedAt.size;
      for (const v of items) for (const m of v.treatmentPlan?.prescriptions || []) prescribedAt.set(m.id, v.occurredAt);
      if (prescribedAt.size !== known) drawMedications();
      replace(sections.visits.body,
        items.length ? h('ol', { class: 'plain entries visit-list' }, items.map((v) => {
          const vitals = describeVitals(v.vitals);
          const plan = v.treatmentPlan;
          return h('li', { dataset: { visit: v.id } },
            h('p', { class: 'muted' }, `${dateTime(v.occurredAt)}${v.recordedBy ? ` · ${v.recordedBy}` : ''}`),
            h('p', {}, h('strong', {}, v.chiefComplaint)),
            v.symptoms?.length ? h('p', {}, `Symptoms: ${v.symptoms.join(', ')}`) : null,
            v.diagnoses.length ? h('p', {}, `Diagnoses: ${v.diagnoses.map((d) => `${d.name} (${words(d.certainty)})`).join('; ')}`) : null,
            vitals.length ? h('p', { class: 'muted' }, vitals.join(' · ')) : null,
            plan ? h('p', {}, `Plan: ${[plan.approaches.map(words).join(' and '), plan.summary, (plan.procedures || []).map((x) => x.name).join(', ')].filter(Boolean).join(' · ')}`) : null,
            plan?.prescriptions?.length ? h('p', { class: 'prescribed' }, `Prescribed: ${prescribedText(plan.prescriptions)}`) : null,
            v.followUpRequired ? h('p', { class: 'follow-up' }, `Follow-up ${plainDate(v.followUpDate)}${v.followUpReason ? `: ${v.followUpReason}` : ''}`) : null);
        })) : h('p', { class: 'muted' }, 'No visit recorded yet.'),
        canClinical ? h('p', {}, h('a', { class: 'button', href: `#/consult?patient=${encodeURIComponent(patientId)}&from=record` }, 'Record a visit')) : null);
    }, { alive: () => alive });
  }

  // MARK: - Documents

  async function loadDocuments() {
    const file = h('input', { type: 'file', accept: 'application/pdf,image/png,image/jpeg' });
    const upload = canWrite ? h('form', { class: 'inline-form', novalidate: true }, field('Upload a PDF, PNG or JPEG (up to 20 MB)', file, { fieldName: 'fileName' }),
      h('button', { type: 'submit', class: 'button' }, 'Upload'), h('div', { class: 'form-errors', role: 'alert', hidden: true })) : null;
    upload?.addEventListener('submit', async (event) => {
      event.preventDefault();
      const chosen = file.files[0];
      if (!chosen) { showErrors(upload, [{ field: 'fileName', message: 'Choose a file first.' }]); return; }
      await submitForm(upload, upload.querySelector('button'), async () => {
        await api.request('POST', `/patients/${patientId}/documents`, { raw: chosen, query: { fileName: chosen.name } });
        toast('Document uploaded', 'success');
        loadDocuments();
      }, { label: 'Uploading…', at: 'fileName' });
    });
    await loadInto(sections.documents.body, () => api.get(`/patients/${patientId}/documents`), ({ items }) => {
      replace(sections.documents.body, items.length ? h('ul', { class: 'plain entries' }, items.map((d) => {
        const view = h('button', { type: 'button', class: 'button', 'aria-label': `View ${d.fileName}` }, 'View');
        view.addEventListener('click', () => act(view, async () => {
          const { data } = await api.request('GET', `/patients/${patientId}/documents/${d.id}`, { blob: true });
          const link = URL.createObjectURL(data);
          window.open(link, '_blank', 'noopener');
          setTimeout(() => URL.revokeObjectURL(link), 60000);
        }, { label: 'Opening…' }));
        return h('li', { class: 'row spread' }, h('span', {}, h('strong', {}, d.fileName), h('span', { class: 'muted' }, ` · ${Math.max(1, Math.round(d.byteCount / 1024))} KB · ${date(d.createdAt)}`)), view);
      })) : h('p', { class: 'muted' }, 'No documents.'), upload);
    }, { alive: () => alive });
  }

  // MARK: - Triage history and appointments

  function loadTriage() {
    return loadInto(sections.triage.body, () => api.get(`/patients/${patientId}/assessments`, { limit: 20 }), (page) => {
      replace(sections.triage.body, page.items.length ? h('ol', { class: 'plain entries' }, page.items.map((a) => h('li', {},
        levelBadge(a.level), ` ${dateTime(a.arrivalTime)}`,
        h('span', { class: 'muted' }, ` · ${(a.result.fired || []).map((f) => f.id).join(', ') || 'no discriminator fired'}`),
        a.result.complaint ? h('span', {}, ` · “${a.result.complaint}”`) : null)))
        : h('p', { class: 'muted' }, 'Never triaged.'));
    }, { alive: () => alive });
  }

  // This patient's own appointments (GET /patients/{id}/appointments, newest first, a page at
  // a time), with when they were last in and are next due; never the whole practice's.
  async function loadAppointments() {
    if (!session.can('book')) { replace(sections.appointments.body, h('p', { class: 'muted' }, 'Your role does not include the schedule.')); return; }
    const shown = [];
    const list = h('ul', { class: 'plain entries appointment-history' });
    const more = h('button', { type: 'button', class: 'button', hidden: true }, 'Older appointments');
    let cursor = null;
    const entry = (a) => h('li', { dataset: { appointment: a.id } },
      h('a', { class: 'entry-link', href: `#/schedule?date=${a.start.slice(0, 10)}` }, `${date(a.start)} ${time(a.start)}`), ` · ${words(a.status)}`,
      a.reason ? h('span', { class: 'muted' }, ` · ${a.reason}`) : null);
    async function page() {
      const answer = await api.get(`/patients/${encodeURIComponent(patientId)}/appointments`, { limit: 50, cursor: cursor || undefined });
      if (!alive) return null;
      shown.push(...answer.items);
      list.append(...answer.items.map(entry));
      cursor = answer.nextCursor || null;
      more.hidden = !cursor;
      return answer;
    }
    more.addEventListener('click', () => act(more, page, {
      label: 'Loading…',
      // Above the button, keeping the pages already shown.
      handle: (error) => { if (alive) more.before(notice(problemText(error))); return true; },
    }));
    await loadInto(sections.appointments.body, page, (first) => {
      const summary = [
        first.next ? `Next: ${date(first.next.start)} ${time(first.next.start)}` : null,
        first.lastSeen ? `Last seen: ${date(first.lastSeen.start)}` : null,
      ].filter(Boolean);
      replace(sections.appointments.body,
        summary.length ? h('p', { class: 'appointment-summary' }, summary.join(' · ')) : null,
        shown.length ? list : h('p', { class: 'muted' }, 'No appointments yet.'),
        more);
    }, { alive: () => alive });
  }

  // MARK: - Adding entries

  async function submitEntry(event, form, path, body, done) {
    event.preventDefault();
    await submitForm(form, form.querySelector('button[type=submit]'), async () => {
      record = await api.post(`/patients/${patientId}/${path}`, body(), { idempotencyKey: api.newKey(), queue: { subject: record?.patient?.name } });
      if (!alive) return;
      // The answer already holds the change; its event, arriving a moment later, must not
      // redraw the record under the user's hands.
      ownChangeUntil = Date.now() + 5000;
      toast(done, 'success');
      announce(done);
      drawHeader(); drawWeight(); drawMedications(); drawProblems(); drawAllergies(); drawVaccinations(); drawNotes();
    }, {
      label: 'Saving…', focus: true,
      // Offline: kept on the device, listed at the top as waiting to send; the form is cleared.
      handle: (error) => {
        if (!error.queued) return false;
        form.reset();
        toast(`${done} on this device — waiting to send`, 'info');
        return true;
      },
    });
  }

  /** A correction was saved: the answer is the record as it now stands. */
  function corrected(updated) {
    if (!alive) return;
    record = updated;
    ownChangeUntil = Date.now() + 5000;
    drawHeader(); drawWeight(); drawMedications(); drawProblems(); drawAllergies(); drawVaccinations(); drawNotes();
  }

  const reloadSoon = () => load();
  const ownEcho = (e) => e.actorId === session.user.id && ['record.entry_added', 'record.entry_corrected'].includes(e.kind) && Date.now() < ownChangeUntil;
  const unsubscribe = live.subscribe(['record.entry_added', 'record.entry_corrected', 'patient.updated', 'patient.triaged', 'appointment.*', 'owner.updated'], (events) => {
    // The owner shown changed: read afresh (the record keeps the owner it read otherwise).
    if (events.some((e) => e.kind === 'owner.updated' && owner && e.resourceId === owner.id)) { owner = null; reloadSoon(); return; }
    if (events.some((e) => e.kind === 'reset' || e.kind === 'poll'
      || (e.kind !== 'owner.updated' && !ownEcho(e) && (e.resourceId === patientId || e.payload?.patientID === patientId)))) reloadSoon();
  });
  load();
  return () => { alive = false; unsubscribe(); };
}

function details(summary, content) {
  return h('details', { class: 'add-entry' }, h('summary', {}, summary), content);
}

function numberOrText(input) { return input.value.trim() === '' ? undefined : Number(input.value); }
function trim(value) { return Number(value).toLocaleString('en-GB', { maximumFractionDigits: 3 }); }
function formatKg(grams) { return (grams / 1000).toLocaleString('en-GB', { maximumFractionDigits: 2 }); }
function addDaysText(isoDay, days) {
  const [y, m, d] = isoDay.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

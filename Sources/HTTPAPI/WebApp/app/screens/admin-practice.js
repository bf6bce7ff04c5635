// Admin → Practice settings: the practice's name, contact, who signs in with a second factor
// and its opening hours (admin-hours.js), saved as one change with If-Match, and its closures
// (admin-closures.js). Settings changed by someone else meanwhile (412) are shown as now stored.
// Without the right to manage the practice the settings are shown only.

import * as api from '../api.js';
import { h, replace, field, notice, toast, words, dateTime, showErrors, clearErrors, announce } from '../ui.js';
import { loadInto, submitForm } from '../forms.js';
import { ROLES } from './admin-accounts.js';
import { hoursTable, sortHours } from './admin-hours.js';
import { closuresSection } from './admin-closures.js';

/** Loads the practice's settings and shows them (`message`: a word on what just happened). */
export function showPractice(ctx, message) {
  const { body } = ctx;
  if (!body.childElementCount) replace(body, h('p', { class: 'muted' }, 'Loading…'));
  return loadInto(body, () => api.request('GET', '/practice'), (answer) => drawPractice(ctx, answer, message), { alive: ctx.alive });
}

function drawPractice(ctx, answer, message) {
  const { session, body } = ctx;
  const canEdit = session.can('managePractice');
  const practice = answer.data;
  let etag = answer.etag ?? practice.version;
  Object.assign(session.practice, practice);
  document.getElementById('practice-name').textContent = practice.name;

  const facts = h('dl', { class: 'facts' },
    h('dt', {}, 'Time zone'), h('dd', {}, practice.timeZone),
    practice.slotGridMinutes ? [h('dt', {}, 'Booking grid'), h('dd', {}, `every ${practice.slotGridMinutes} minutes`)] : null);

  if (!canEdit) {
    replace(body, h('section', { class: 'panel glass', 'aria-labelledby': 'practice-title' },
      h('h2', { id: 'practice-title' }, practice.name), facts,
      h('dl', { class: 'facts' },
        practice.phone ? [h('dt', {}, 'Phone'), h('dd', {}, practice.phone)] : null,
        practice.address ? [h('dt', {}, 'Address'), h('dd', {}, practice.address)] : null),
      hoursTable(practice, false).table,
      h('p', { class: 'muted' }, 'An administrator changes these settings.')),
    closuresSection(practice, false));
    return;
  }

  // Name, contact and opening hours: one form, sent as one change with If-Match.
  const name = h('input', { type: 'text', autocomplete: 'off', maxlength: 120, value: practice.name });
  const phone = h('input', { type: 'text', inputmode: 'tel', autocomplete: 'off', maxlength: 40, value: practice.phone || '' });
  const address = h('textarea', { rows: 3, maxlength: 400 });
  address.value = practice.address || '';
  const hours = hoursTable(practice, true);
  // Who signs in with a second factor: administrators unless the practice says otherwise.
  const asked = new Set(practice.secondFactorRoles || []);
  const factorBoxes = ROLES.map((r) => {
    const box = h('input', { type: 'checkbox', value: r, checked: asked.has(r) });
    return { role: r, box, label: h('label', { class: 'check' }, box, ` ${words(r)}`) };
  });
  const factors = h('fieldset', { class: 'field field-wide', 'data-field': 'secondFactorRoles' },
    h('legend', {}, 'Two-factor sign-in asked of'),
    h('div', { class: 'row wrap' }, factorBoxes.map((f) => f.label)),
    h('p', { class: 'hint' }, 'Members of these roles sign in with a code from an authenticator app as well as their password; until they set one up they can do nothing else.'));
  const status = h('div', { 'aria-live': 'polite' }, message || null);
  const save = h('button', { type: 'submit', class: 'button primary' }, 'Save the settings');
  const form = h('form', { class: 'panel glass stack-form practice-form', novalidate: true, 'aria-labelledby': 'practice-title' },
    h('h2', { id: 'practice-title' }, 'Practice settings'),
    facts,
    h('div', { class: 'grid-fields' },
      field('Practice name', name, { fieldName: 'name' }),
      field('Phone', phone, { fieldName: 'phone' }),
      field('Address', address, { fieldName: 'address', wide: true }),
      factors),
    hours.table,
    h('div', { class: 'form-errors', role: 'alert', hidden: true }),
    h('div', { class: 'row wrap' }, save),
    status);

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors(form);
    replace(status);
    const change = {};
    if (name.value.trim() !== practice.name) change.name = name.value.trim();
    if (phone.value.trim() !== (practice.phone || '')) change.phone = phone.value.trim();
    if (address.value.trim() !== (practice.address || '')) change.address = address.value.trim();
    const wanted = hours.read();
    const local = [...wanted.errors];
    if ('name' in change && !change.name) local.push({ field: 'name', message: 'Enter the practice’s name.' });
    if (local.length) {
      showErrors(form, local);
      form.querySelector('[aria-invalid="true"]')?.focus();
      return;
    }
    const wantedFactors = factorBoxes.filter((f) => f.box.checked).map((f) => f.role);
    if (JSON.stringify(wantedFactors) !== JSON.stringify(ROLES.filter((r) => asked.has(r)))) change.secondFactorRoles = wantedFactors;
    const sameHours = JSON.stringify(wanted.openingHours) === JSON.stringify(sortHours(practice.openingHours));
    if (!sameHours) change.openingHours = wanted.openingHours;
    if (!Object.keys(change).length) { replace(status, h('p', { class: 'notice notice-success', role: 'status' }, 'Nothing has changed.')); return; }
    await submitForm(form, save, async () => {
      const answer = await api.request('PATCH', '/practice', { body: change, ifMatch: etag });
      if (!ctx.alive()) return;
      const replan = answer.data.appointmentsToReplan || [];
      toast('Practice settings saved', 'success');
      announce('Practice settings saved');
      await showPractice(ctx, h('div', { class: 'notice notice-success saved', role: 'status' },
        h('strong', {}, 'Saved. '),
        replan.length ? [`${replan.length} appointment${replan.length === 1 ? '' : 's'} still to come now fall${replan.length === 1 ? 's' : ''} outside the opening hours and need re-planning (nothing was moved or cancelled):`,
          h('ul', { class: 'replan-list' }, replan.slice(0, 20).map((a) => h('li', {}, h('a', { class: 'entry-link', href: `#/schedule?date=${a.start.slice(0, 10)}` }, dateTime(a.start)))))]
          : 'No appointment still to come falls outside the opening hours.'));
    }, { label: 'Saving…', focus: true, handle: changedMeanwhile(ctx, 'Someone else changed the settings meanwhile. They are shown as now stored: check them and save again.') });
  });

  replace(body, form, closuresSection(practice, true, {
    setEtag: (next) => { etag = next ?? etag; },
    getEtag: () => etag,
    alive: ctx.alive,
    changedMeanwhile: (text) => changedMeanwhile(ctx, text),
  }));
}

/** A change refused because the settings changed meanwhile (412): they are shown as now
 *  stored, with `text`; any other failure is left to the caller. */
function changedMeanwhile(ctx, text) {
  return (error) => {
    if (!ctx.alive()) return true;
    if (error.status !== 412) return false;
    showPractice(ctx, notice(text));
    return true;
  };
}

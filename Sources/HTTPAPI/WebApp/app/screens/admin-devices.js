// Admin → Staff accounts → Shared devices: the practice's registered shared devices (a ward or
// reception iPad where staff unlock with their own PIN), each revoked on its own, and
// registering this browser as one with the time after which it locks itself.

import * as api from '../api.js';
import { h, replace, field, toast, dateTime, showErrors } from '../ui.js';
import { act, loadInto, submitForm } from '../forms.js';

/** The practice's shared devices, and registering this browser as one. */
export function sharedDevices(ctx) {
  const list = h('div', { 'aria-live': 'polite' }, h('p', { class: 'muted' }, 'Loading…'));
  const name = h('input', { type: 'text', autocomplete: 'off', maxlength: 80, placeholder: 'Ward iPad' });
  const idle = h('input', { type: 'text', inputmode: 'numeric', autocomplete: 'off', value: '120' });
  const submit = h('button', { type: 'submit', class: 'button' }, 'Register this device');
  const form = h('form', { class: 'stack-form', novalidate: true },
    h('div', { class: 'grid-fields' }, field('Device name', name, { fieldName: 'name' }),
      field('Lock after', idle, { fieldName: 'idleLockSeconds', unit: 's', hint: '10 to 3600 seconds without use' })),
    h('div', { class: 'form-errors', role: 'alert', hidden: true }), h('div', { class: 'row wrap' }, submit));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const seconds = Number(idle.value.trim());
    if (!Number.isInteger(seconds)) { showErrors(form, [{ field: 'idleLockSeconds', message: 'Enter a whole number of seconds.' }]); idle.focus(); return; }
    const device = await submitForm(form, submit, () => api.post('/shared-devices', { name: name.value.trim(), idleLockSeconds: seconds }),
      { label: 'Registering…', focus: true });
    if (device) { toast(`This browser is now the shared device “${device.name}”`, 'success'); form.reset(); load(); }
  });
  function load() {
    loadInto(list, () => api.get('/shared-devices'), (answer) => {
      replace(list, answer.items.length
        ? h('ul', { class: 'device-list' }, answer.items.map((d) => {
          const revoke = h('button', { type: 'button', class: 'button quiet' }, 'Revoke');
          revoke.setAttribute('aria-label', `Revoke ${d.name}`);
          revoke.addEventListener('click', () => act(revoke, async () => {
            if (!window.confirm(`Revoke “${d.name}”? PINs stop working on it; staff sign in there with their password.`)) return;
            await api.del(`/shared-devices/${d.id}`);
            toast(`${d.name} revoked`, 'success');
            load();
          }, { label: 'Revoking…' }));
          return h('li', { class: 'row wrap' }, h('span', {}, h('strong', {}, d.name), ` · locks after ${d.idleLockSeconds} s · registered ${dateTime(d.registeredAt)}`), revoke);
        }))
        : h('p', { class: 'muted' }, 'No device is registered as shared.'));
    }, { alive: ctx.alive });
  }
  load();
  return h('section', { class: 'panel glass', 'aria-labelledby': 'devices-title' },
    h('h2', { id: 'devices-title' }, 'Shared devices'),
    h('p', {}, 'On a registered device (a ward or reception iPad) staff unlock with their own PIN, within 12 hours of signing in there with their password; it locks itself after the time set here.'),
    list, form);
}

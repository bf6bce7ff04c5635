// Shared devices (a ward or reception iPad an administrator registered): staff unlock with
// their own PIN, the screen locks after the device's idle time with the practice's data
// hidden, and handing over is one tap and a PIN. The PIN works only here, and for 12 hours
// after the person's last full sign-in on this device.

import * as api from '../api.js';
import { h, field, replace, toast, showErrors, clearErrors, announce } from '../ui.js';
import { submitForm, act } from '../forms.js';
import * as passkeys from '../passkeys.js';

const ACTIVITY = ['pointerdown', 'keydown', 'touchstart', 'wheel'];
// Who used this device lately (names and addresses only, no practice data), so that handing
// over is a tap on one's name and a PIN.
const PEOPLE = 'vetnet-shared-device-people';
const MAX_PEOPLE = 8;

/** The people who signed in or unlocked on this device, most recent first. */
function recentPeople() {
  try { return JSON.parse(localStorage.getItem(PEOPLE) || '[]').filter((p) => p && p.email && p.displayName); } catch { return []; }
}

/** Remembers `user` as someone who uses this shared device. */
export function rememberPerson(user) {
  const person = { email: user.email, displayName: user.displayName, role: user.role };
  const people = [person, ...recentPeople().filter((p) => p.email !== person.email)].slice(0, MAX_PEOPLE);
  try { localStorage.setItem(PEOPLE, JSON.stringify(people)); } catch { /* storage full or denied: typing the email still works */ }
}
let timer = null;
let device = null;
let locked = false;

/** Watches for idleness on a registered device; `onLock()` hides the screen and ends the session. */
export function watchIdle(workstation, onLock) {
  stopWatching();
  if (!workstation?.registered) return;
  device = workstation;
  const restart = () => {
    if (locked) return;
    clearTimeout(timer);
    timer = setTimeout(onLock, device.idleLockSeconds * 1000);
  };
  watchIdle.restart = restart;
  ACTIVITY.forEach((type) => window.addEventListener(type, restart, { passive: true, capture: true }));
  restart();
}

/** Stops the idle watch (sign-out). */
export function stopWatching() {
  clearTimeout(timer);
  if (watchIdle.restart) ACTIVITY.forEach((type) => window.removeEventListener(type, watchIdle.restart, { capture: true }));
  watchIdle.restart = null;
}

/** The lock screen over a hidden app: the person who was signed in unlocks with their PIN, or
 *  someone else with theirs; `onUnlocked(me)` once a session is open again. */
export function showLock({ person, deviceName, onUnlocked, onPasswordSignIn }) {
  locked = true;
  const main = document.getElementById('main');
  const bar = document.getElementById('top-bar');
  // The practice's data is hidden, not just covered: neither shown nor read out.
  main.hidden = true;
  bar.hidden = true;
  const email = h('input', { type: 'text', inputmode: 'email', name: 'email', autocomplete: 'username', spellcheck: 'false', value: person?.email || '' });
  const pin = h('input', { type: 'password', inputmode: 'numeric', name: 'pin', maxlength: 12 });
  const emailField = field('Email', email, { fieldName: 'email' });
  emailField.hidden = Boolean(person);
  const submit = h('button', { type: 'submit', class: 'button primary wide' }, 'Unlock');
  const someoneElse = h('button', { type: 'button', class: 'button quiet' }, 'Someone else');
  const password = h('button', { type: 'button', class: 'button quiet' }, 'Sign in with password');
  // A passkey on this device instead of the PIN (Face ID, Touch ID or the device's own PIN).
  const withPasskey = h('button', { type: 'button', class: 'button wide', hidden: !passkeys.supported(), dataset: { passkey: 'unlock' } }, 'Unlock with a passkey');
  const who = h('p', { class: 'lock-person' }, person ? `${person.displayName} was signed in.` : 'Enter your email and PIN.');
  // One tap on a name, then the PIN.
  const people = recentPeople();
  const choose = (p) => {
    email.value = p.email;
    emailField.hidden = true;
    replace(who, `${p.displayName}: enter your PIN.`);
    pin.value = '';
    pin.focus();
  };
  const peopleRow = people.length
    ? h('div', { class: 'row wrap lock-people', role: 'group', 'aria-label': 'Who is using the device' }, people.map((p) => {
      const button = h('button', { type: 'button', class: 'button', dataset: { email: p.email } }, p.displayName);
      button.addEventListener('click', () => choose(p));
      return button;
    }))
    : null;
  const form = h('form', { class: 'sign-in-form', novalidate: true },
    peopleRow, who, emailField, field('PIN', pin, { fieldName: 'pin' }),
    h('div', { class: 'form-errors', role: 'alert', hidden: true }), submit, withPasskey,
    h('div', { class: 'row wrap' }, someoneElse, password));
  const screen = h('section', { class: 'sign-in glass lock-screen', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'lock-title' },
    h('div', { class: 'brand large' }, h('img', { src: '/app/icon.svg', alt: '', width: 48, height: 48 }), h('span', {}, 'VetNet')),
    h('h1', { id: 'lock-title' }, `Locked · ${deviceName}`), form);
  document.body.append(screen);
  someoneElse.addEventListener('click', () => {
    emailField.hidden = false;
    email.value = '';
    replace(who, 'Enter your email and PIN.');
    email.focus();
  });
  password.addEventListener('click', () => { screen.remove(); locked = false; onPasswordSignIn(); });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors(form);
    if (!email.value.trim() || !pin.value) {
      showErrors(form, [!email.value.trim() ? { field: 'email', message: 'Enter your email address.' } : { field: 'pin', message: 'Enter your PIN.' }]);
      (emailField.hidden ? pin : email).focus();
      return;
    }
    const answer = await submitForm(form, submit, () => api.unlock(email.value.trim(), pin.value), {
      label: 'Unlocking…', into: form.querySelector('.form-errors'),
      message: (error) => (error.status === 401 && error.problem?.type !== api.FULL_SIGN_IN_REQUIRED ? 'The email or PIN is not right.' : error.message),
    });
    pin.value = '';
    if (!answer) { pin.focus(); return; }
    await unlocked(answer);
  });
  withPasskey.addEventListener('click', async () => {
    clearErrors(form);
    if (!email.value.trim()) {
      showErrors(form, [{ field: 'email', message: 'Tap your name or enter your email address first.' }]);
      emailField.hidden = false;
      email.focus();
      return;
    }
    const answer = await submitForm(form, withPasskey, async () => api.unlock(email.value.trim(), undefined, await passkeys.assertion()), {
      label: 'Waiting for the passkey…', into: form.querySelector('.form-errors'),
      message: (error) => (error.name === 'NotAllowedError' ? 'No passkey was used (cancelled, or none on this device).' : error.message),
    });
    if (answer) await unlocked(answer);
  });
  async function unlocked(answer) {
    screen.remove();
    locked = false;
    main.hidden = false;
    rememberPerson(answer.user);
    announce(`Unlocked for ${answer.user.displayName}`);
    await onUnlocked(answer.user);
  }
  (person ? pin : email).focus();
}

/** The PIN part of the account dialog: sets the person's PIN (their password asked again). */
export function pinSection() {
  const pin = h('input', { type: 'password', inputmode: 'numeric', name: 'new-pin', maxlength: 12 });
  const password = h('input', { type: 'password', name: 'password', autocomplete: 'current-password' });
  const submit = h('button', { type: 'submit', class: 'button' }, 'Set the PIN');
  const form = h('form', { class: 'stack-form', novalidate: true, 'aria-labelledby': 'pin-title' },
    h('h3', { id: 'pin-title' }, 'PIN for shared devices'),
    h('p', { class: 'muted' }, 'Unlocks the practice’s shared iPads for 12 hours after you sign in there with your password. 6 to 12 digits.'),
    h('div', { class: 'grid-fields' }, field('New PIN', pin, { fieldName: 'pin' }), field('Your password', password, { fieldName: 'password' })),
    h('div', { class: 'form-errors', role: 'alert', hidden: true }), h('div', { class: 'row wrap' }, submit));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const done = await submitForm(form, submit, async () => { await api.put('/me/pin', { pin: pin.value, password: password.value }); return true; },
      { label: 'Saving…', focus: true });
    if (done) { pin.value = ''; password.value = ''; toast('Your PIN is set', 'success'); }
  });
  return form;
}

/** The passkeys part of the account dialog: the person's passkeys, making one on this device
 *  (their password asked again) and removing one. A passkey is a second factor at sign-in and
 *  unlocks the practice's shared devices instead of the PIN. */
export function passkeySection({ onAdded } = {}) {
  const list = h('ul', { class: 'plain-list passkey-list', 'aria-live': 'polite' });
  const name = h('input', { type: 'text', name: 'passkey-name', maxlength: 60, value: /iPad/.test(navigator.userAgent) ? 'iPad' : 'This device' });
  const password = h('input', { type: 'password', name: 'passkey-password', autocomplete: 'current-password' });
  const submit = h('button', { type: 'submit', class: 'button' }, 'Add a passkey on this device');
  const form = h('form', { class: 'stack-form', novalidate: true, 'aria-labelledby': 'passkeys-title' },
    h('h3', { id: 'passkeys-title' }, 'Passkeys'),
    h('p', { class: 'muted' }, 'Sign in with Face ID, Touch ID or the device’s own PIN instead of an authenticator code, and unlock shared iPads without your VetNet PIN.'),
    list,
    h('div', { class: 'grid-fields' }, field('Name', name, { fieldName: 'name' }), field('Your password', password, { fieldName: 'password' })),
    h('div', { class: 'form-errors', role: 'alert', hidden: true }), h('div', { class: 'row wrap' }, submit));
  const show = async () => {
    let items = [];
    try { items = await passkeys.list(); } catch { replace(list, h('li', { class: 'muted' }, 'Your passkeys could not be loaded.')); return; }
    replace(list, items.length ? items.map((item) => {
      const remove = h('button', { type: 'button', class: 'button quiet', 'aria-label': `Remove the passkey ${item.name}` }, 'Remove');
      remove.addEventListener('click', async () => {
        const done = await act(remove, async () => { await passkeys.remove(item.id); return true; }, { label: 'Removing…' });
        if (done) { toast(`Passkey ${item.name} removed`, 'success'); show(); }
      });
      return h('li', { class: 'row wrap', dataset: { passkey: item.id } }, h('span', {}, `${item.name} · ${item.site}`), remove);
    }) : h('li', { class: 'muted' }, 'No passkey yet.'));
  };
  if (!passkeys.supported()) {
    submit.disabled = true;
    form.append(h('p', { class: 'muted' }, passkeys.atAddress()
      ? 'Passkeys belong to the practice’s address by name (such as https://vetnet.example or http://localhost), not to an IP address: open VetNet by its name to add one.'
      : 'This browser cannot make passkeys here (it needs HTTPS).'));
  }
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const added = await submitForm(form, submit, () => passkeys.create(name.value.trim(), password.value), {
      label: 'Waiting for the device…', focus: true,
      message: (error) => (error.name === 'NotAllowedError' ? 'No passkey was made (cancelled).' : error.name === 'InvalidStateError' ? 'This device holds a passkey for your account already.' : error.message),
    });
    if (added) { password.value = ''; toast(`Passkey ${added.name} added`, 'success'); show(); onAdded?.(added); }
  });
  show();
  return form;
}

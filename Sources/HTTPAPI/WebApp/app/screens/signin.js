// Sign in: as the first screen, and as a dialog over the current screen when a session ends
// mid-work (the screen underneath, and what was typed in it, stay as they were).

import * as api from '../api.js';
import { h, field, replace, clearErrors, showErrors, problemText } from '../ui.js';
import { submitForm } from '../forms.js';
import * as passkeys from '../passkeys.js';

/** Why a sign-in was refused, in words for the person signing in. */
function refusal(error) {
  if (error.problem?.type === api.SECOND_FACTOR_REQUIRED) return error.detail;
  if (error.status === 401) return 'The email or password is not right.';
  if (error.status === 429) return `${error.detail} Too many attempts for now.`;
  return problemText(error);
}

function form({ email, onSignedIn, intro }) {
  const emailInput = h('input', { type: 'text', inputmode: 'email', name: 'email', autocomplete: 'username', required: true, value: email || '', spellcheck: 'false' });
  const passwordInput = h('input', { type: 'password', name: 'password', autocomplete: 'current-password', required: true });
  // Shown once the server says the account signs in with a second factor too.
  const codeInput = h('input', { type: 'text', name: 'code', inputmode: 'numeric', autocomplete: 'off', maxlength: 16, spellcheck: 'false' });
  const codeField = field('Authentication code', codeInput, { fieldName: 'code', hint: 'The six digits your authenticator app shows now, or one of your recovery codes.' });
  codeField.hidden = true;
  // A passkey instead of the code, where this browser can use one.
  const passkeyButton = h('button', { type: 'button', class: 'button wide', hidden: true, dataset: { passkey: 'sign-in' } }, 'Use a passkey instead');
  const message = h('div', { class: 'form-errors', role: 'alert', hidden: true });
  const submit = h('button', { type: 'submit', class: 'button primary wide' }, 'Sign in');
  const element = h('form', { class: 'sign-in-form', novalidate: true },
    intro ? h('p', {}, intro) : null,
    field('Email', emailInput, { fieldName: 'email' }),
    field('Password', passwordInput, { fieldName: 'password' }),
    codeField,
    message,
    submit,
    passkeyButton);
  // Another address: its code, if any, is asked again.
  emailInput.addEventListener('input', () => { codeField.hidden = true; passkeyButton.hidden = true; codeInput.value = ''; });
  passkeyButton.addEventListener('click', async () => {
    clearErrors(element);
    const signedIn = await submitForm(element, passkeyButton, async () => {
      const answer = await passkeys.assertion();
      await api.signIn(emailInput.value.trim(), passwordInput.value, undefined, answer);
      passwordInput.value = '';
      await onSignedIn();
      return true;
    }, {
      label: 'Waiting for the passkey…', into: message,
      message: (error) => (error.name === 'NotAllowedError' ? 'No passkey was used (cancelled, or none for this site on this device).' : refusal(error)),
      handle: (error) => {
        if (error.problem?.type !== api.SECOND_FACTOR_REQUIRED) return false;
        showErrors(element, [{ field: 'code', message: 'That passkey was not accepted. Use the code from your authenticator app, or try again.' }]);
        return true;
      },
    });
    if (!signedIn) codeInput.focus();
  });
  element.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors(element);
    const errors = [];
    if (!emailInput.value.trim()) errors.push({ field: 'email', message: 'Enter your email address.' });
    if (!passwordInput.value) errors.push({ field: 'password', message: 'Enter your password.' });
    if (!codeField.hidden && !codeInput.value.trim()) errors.push({ field: 'code', message: 'Enter the code from your authenticator app.' });
    if (errors.length) { showErrors(element, errors); element.querySelector('[aria-invalid="true"]')?.focus(); return; }
    let needsCode = false;
    const signedIn = await submitForm(element, submit, async () => {
      await api.signIn(emailInput.value.trim(), passwordInput.value, codeField.hidden ? undefined : codeInput.value.trim());
      passwordInput.value = '';
      codeInput.value = '';
      await onSignedIn();
      return true;
    }, {
      label: 'Signing in…', into: message, message: refusal,
      handle: (error) => {
        if (error.problem?.type !== api.SECOND_FACTOR_REQUIRED) return false;
        // The password was right: the code is what is missing or wrong.
        needsCode = true;
        const first = codeField.hidden;
        codeField.hidden = false;
        passkeyButton.hidden = !passkeys.supported();
        codeInput.value = '';
        showErrors(element, [{ field: 'code', message: first ? `Enter the code from your authenticator app${passkeys.supported() ? ', or use a passkey' : ''}.` : error.detail }]);
        return true;
      },
    });
    if (!signedIn) (needsCode ? codeInput : passwordInput).focus();
  });
  return { element, focus: () => (emailInput.value ? passwordInput : emailInput).focus() };
}

/** The sign-in screen. */
export function renderSignIn(container, { email, onSignedIn }) {
  const { element, focus } = form({ email, onSignedIn });
  replace(container, h('section', { class: 'sign-in glass', 'aria-labelledby': 'sign-in-title' },
    h('div', { class: 'brand large' }, h('img', { src: '/app/icon.svg', alt: '', width: 48, height: 48 }), h('span', {}, 'VetNet')),
    h('h1', { id: 'sign-in-title' }, 'Sign in'),
    element));
  focus();
}

/** Asks for sign-in over the current screen; resolves once signed in again. */
export function signInDialog({ email }) {
  return new Promise((resolve) => {
    const dialog = h('dialog', { class: 'dialog glass', 'aria-labelledby': 'resign-title' });
    const { element, focus } = form({
      email,
      intro: 'Your session has ended. Sign in again to carry on — everything on the screen, including what you typed, is kept.',
      onSignedIn: async () => { dialog.close(); dialog.remove(); resolve(); },
    });
    // Signing in is the only way on: Escape must not leave a screen whose calls cannot succeed.
    dialog.addEventListener('cancel', (event) => event.preventDefault());
    dialog.append(h('h2', { id: 'resign-title' }, 'Sign in again'), element);
    document.body.append(dialog);
    dialog.showModal();
    focus();
  });
}

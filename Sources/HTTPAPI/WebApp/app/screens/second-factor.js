// Two-factor sign-in: setting up an authenticator app (the password asked again, the secret to
// type or the link to open, a code to confirm, the recovery codes shown once). Shown as the
// only screen when the practice asks it of the person's role and they have none yet, and from
// the name in the top bar to see where it stands or set up a new phone.

import * as api from '../api.js';
import { h, field, replace, announce, toast, dateTime, showErrors } from '../ui.js';
import { submitForm } from '../forms.js';
import { pinSection, passkeySection } from './shared-device.js';
import * as passkeys from '../passkeys.js';

/** The secret in groups of four, easier to type into an app by hand. */
function grouped(secret) { return secret.match(/.{1,4}/g).join(' '); }

/** The steps of setting one up, in `container`; `onDone()` once the codes have been kept. */
export function renderSetup(container, { heading = 'Set up two-factor sign-in', intro, onDone, headingLevel = 'h1' }) {
  const titleId = `sf-title-${Math.random().toString(36).slice(2)}`;
  const section = h('section', { class: 'panel glass second-factor', 'aria-labelledby': titleId });
  const title = h(headingLevel, { id: titleId }, heading);

  function passwordStep() {
    const password = h('input', { type: 'password', autocomplete: 'current-password', name: 'password', required: true });
    const submit = h('button', { type: 'submit', class: 'button primary' }, 'Continue');
    const form = h('form', { class: 'stack-form', novalidate: true },
      field('Your password', password, { fieldName: 'password', hint: 'Asked again, so a screen left signed in is not enough.' }),
      h('div', { class: 'form-errors', role: 'alert', hidden: true }),
      h('div', { class: 'row wrap' }, submit));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const enrolment = await submitForm(form, submit, () => api.post('/me/second-factor/enrolment', { password: password.value }),
        { label: 'Checking…', focus: true });
      if (enrolment) codeStep(enrolment);
    });
    replace(section, title,
      h('p', {}, intro || 'Your account will ask for a code from an authenticator app on your phone (such as Google Authenticator, Microsoft Authenticator or 1Password) each time you sign in, besides your password.'),
      form,
      // Or a passkey on this device: a second factor too, and nothing to type.
      passkeys.supported() ? passkeySection({ onAdded: () => onDone() }) : null);
    password.focus();
  }

  function codeStep(enrolment) {
    const code = h('input', { type: 'text', inputmode: 'numeric', autocomplete: 'off', name: 'code', maxlength: 8, spellcheck: 'false' });
    const submit = h('button', { type: 'submit', class: 'button primary' }, 'Confirm');
    const form = h('form', { class: 'stack-form', novalidate: true },
      h('ol', { class: 'steps' },
        h('li', {}, 'In the authenticator app, add an account. On this device, ',
          h('a', { href: enrolment.uri, class: 'entry-link' }, 'open it in the app'),
          '; elsewhere, choose to enter a setup key and type:'),
        h('li', { class: 'secret' }, h('code', { class: 'secret-key', 'aria-label': `Setup key ${enrolment.secret.split('').join(' ')}` }, grouped(enrolment.secret)),
          h('span', { class: 'muted' }, ' (time-based, six digits, every 30 seconds)')),
        h('li', {}, 'Enter the six digits the app now shows.')),
      field('Code from the app', code, { fieldName: 'code' }),
      h('div', { class: 'form-errors', role: 'alert', hidden: true }),
      h('div', { class: 'row wrap' }, submit));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const value = code.value.replace(/\s/g, '');
      if (!/^\d{6}$/.test(value)) {
        showErrors(form, [{ field: 'code', message: 'Enter the six digits the app shows.' }]);
        code.focus();
        return;
      }
      const answer = await submitForm(form, submit, () => api.post('/me/second-factor', { code: value }), { label: 'Confirming…', focus: true });
      if (answer) codesStep(answer.recoveryCodes);
    });
    replace(section, title, form);
    announce('Add VetNet to your authenticator app, then enter its code.');
    code.focus();
  }

  function codesStep(codes) {
    const kept = h('input', { type: 'checkbox', id: `${titleId}-kept` });
    const done = h('button', { type: 'button', class: 'button primary', disabled: true }, 'Continue');
    kept.addEventListener('change', () => { done.disabled = !kept.checked; });
    const copy = h('button', { type: 'button', class: 'button' }, 'Copy the codes');
    copy.addEventListener('click', async () => {
      try { await navigator.clipboard.writeText(codes.join('\n')); toast('Recovery codes copied', 'success'); } catch { toast('Copying is not allowed here: write the codes down.', 'error'); }
    });
    done.addEventListener('click', () => onDone());
    replace(section, title,
      h('p', { class: 'notice notice-success', role: 'status' }, 'Two-factor sign-in is on. Your other sessions have been signed out.'),
      h('h3', {}, 'Recovery codes'),
      h('p', {}, 'If the phone is lost, each of these codes signs you in once instead of the app. They are shown only now: print them or keep them in a password manager, not on this device.'),
      h('ul', { class: 'recovery-codes' }, codes.map((c) => h('li', {}, h('code', {}, c)))),
      h('div', { class: 'row wrap' }, copy),
      h('p', {}, h('label', { for: kept.id, class: 'check' }, kept, ' I have kept these codes somewhere safe')),
      h('div', { class: 'row wrap' }, done));
    kept.focus();
  }

  passwordStep();
  replace(container, section);
}

/** Where the person's second factor stands, with a way to set one up (again), in a dialog. */
export async function openAccountDialog(opener) {
  const dialog = h('dialog', { class: 'dialog glass', 'aria-labelledby': 'account-dialog-title' });
  const body = h('div', {});
  const close = h('button', { type: 'button', class: 'button quiet' }, 'Close');
  close.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => { dialog.remove(); opener?.focus(); });
  dialog.append(h('h2', { id: 'account-dialog-title' }, 'Sign-in and security'), h('h3', {}, 'Two-factor sign-in'), body, passkeySection(), pinSection(),
    h('div', { class: 'row wrap' }, close));
  document.body.append(dialog);
  dialog.showModal();
  let status;
  try { status = await api.get('/me/second-factor'); } catch (error) {
    replace(body, h('p', { class: 'notice notice-error', role: 'alert' }, error.message));
    return;
  }
  const setUp = h('button', { type: 'button', class: 'button' }, status.enrolled ? 'Set up a new phone' : 'Set up two-factor sign-in');
  setUp.addEventListener('click', () => {
    renderSetup(body, {
      heading: status.enrolled ? 'Set up a new phone' : 'Set up two-factor sign-in', headingLevel: 'h3',
      intro: status.enrolled ? 'The new phone replaces the old one, and new recovery codes replace the old ones, once you confirm a code from it.' : undefined,
      onDone: () => { dialog.close(); toast('Two-factor sign-in is set up', 'success'); },
    });
  });
  replace(body,
    h('dl', { class: 'facts' },
      h('dt', {}, 'Authenticator app'), h('dd', {}, status.enrolled ? `On since ${dateTime(status.enrolledAt)}` : 'Off'),
      h('dt', {}, 'Passkeys'), h('dd', {}, status.passkeys ? `${status.passkeys} (each signs you in instead of a code)` : 'None'),
      status.enrolled ? [h('dt', {}, 'Recovery codes left'), h('dd', {}, String(status.recoveryCodesLeft))] : null,
      h('dt', {}, 'This practice'), h('dd', {}, status.required ? 'asks it of your role' : 'does not ask it of your role')),
    h('div', { class: 'row wrap' }, setUp));
}

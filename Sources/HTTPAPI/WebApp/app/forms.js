// Calling the API and showing how it went, in one way for every screen. Loading: what came
// back is drawn, or the problem's detail takes its place. Sending a form or pressing an action
// button: the button is busy (disabled, with words such as "Saving…") while the call runs; on
// failure the problem's field errors (`errors[{field, message}]`) stand next to the fields
// they name, those naming no field of the form in its summary box, and otherwise the problem's
// detail is shown in the form's message box or the place given. A caller shows a failure that
// needs more than words itself (a conflict with alternatives, a version changed meanwhile)
// through `handle(error)`, which returns true when it did.

import { h, replace, busy, notice, toast, showErrors, clearErrors, problemText } from './ui.js';

/** A change kept on the device while VetNet cannot be reached (api.js QueuedError) is no
 *  failure: it is said as such, and the screen lists it as waiting to send. */
function saidQueued(error) {
  if (!error?.queued) return false;
  toast(error.message, 'info');
  return true;
}

/** Shows a problem's words in `target`: in a form's `.form-errors` box (shown), else as an
 *  error notice replacing what `target` held. */
export function showMessage(target, text) {
  if (target.classList.contains('form-errors')) {
    target.hidden = false;
    replace(target, h('p', {}, text));
  } else replace(target, notice(text));
}

/** Shows a failed call in `form`: its field errors next to their fields (`fields(errors)` may
 *  rename them first), or else its detail (`message(error)`) at the field named `at`, or in
 *  `into`, by default the form's `.form-errors` box. `focus`: the first field at fault takes
 *  the focus. Returns whether field errors were shown. */
export function showProblem(form, error, { into, at, message = problemText, fields = (errors) => errors, focus = false } = {}) {
  const errors = error?.errors || [];
  if (errors.length || at) {
    showErrors(form, errors.length ? fields(errors) : [{ field: at, message: message(error) }]);
    if (focus) form.querySelector('[aria-invalid="true"]')?.focus();
    return errors.length > 0;
  }
  const target = into || form.querySelector('.form-errors');
  if (target) showMessage(target, message(error));
  return false;
}

/** Sends a form: its errors cleared, then `send()` with `button` busy (`label` on it). A
 *  failure goes to `handle(error)` first, then to showProblem with the other options.
 *  Resolves to what `send()` resolved to, or undefined after a failure. */
export async function submitForm(form, button, send, { label, handle, ...shown } = {}) {
  clearErrors(form);
  return busy(button, async () => {
    try {
      return await send();
    } catch (error) {
      if (!handle?.(error) && !saidQueued(error)) showProblem(form, error, shown);
      return undefined;
    }
  }, label);
}

/** Runs an action with `button` busy (`label` on it). A failure goes to `handle(error)` first;
 *  otherwise its detail (`message(error)`) is shown in `into` (a notice replacing what it
 *  held), or without `into` as an error toast. Resolves to what `work()` resolved to, or
 *  undefined after a failure. */
export async function act(button, work, { label, into, handle, message = problemText } = {}) {
  return busy(button, async () => {
    try {
      return await work();
    } catch (error) {
      if (handle?.(error) || saidQueued(error)) return undefined;
      if (into) showMessage(into, message(error));
      else toast(message(error), 'error');
      return undefined;
    }
  }, label);
}

/** Loads and shows: `show(answer)` with what `fetch()` resolved to, or the problem's detail
 *  (`message(error)`) as a notice in `box`, replacing what it held (`wrap(notice)` may wrap it,
 *  such as in a list item). Neither once `alive()` is false (the screen was left, or a newer
 *  load has started). `markBusy`: `box` is aria-busy while loading. */
export async function loadInto(box, fetch, show, { alive = () => true, message = problemText, wrap = (el) => el, markBusy = false } = {}) {
  if (markBusy) box.setAttribute('aria-busy', 'true');
  try {
    const answer = await fetch();
    if (alive()) show(answer);
  } catch (error) {
    if (alive()) replace(box, wrap(notice(message(error))));
  } finally {
    if (markBusy) box.setAttribute('aria-busy', 'false');
  }
}

// The modal dialog of Admin → Types and rooms: a title, and the Cancel button that closes it;
// the dialog is removed when closed and the focus goes back to the button that opened it; and
// saving an edit made in it.

import * as api from '../api.js';
import { h, uid, toast, announce } from '../ui.js';
import { submitForm } from '../forms.js';

/** A small modal dialog titled `title` (`kind`: its class), appended to the page; removed when
 *  closed, the focus back on `opener`. Returns {dialog, close(), cancel (its Cancel button)}. */
export function dialogWith(title, opener, kind) {
  const titleId = uid('setup-title');
  const dialog = h('dialog', { class: ['dialog', 'glass', 'screen-dialog', 'setup-dialog', kind], 'aria-labelledby': titleId });
  const close = () => { if (dialog.open) dialog.close(); dialog.remove(); };
  dialog.addEventListener('close', () => { dialog.remove(); if (opener?.isConnected) opener.focus(); });
  dialog.append(h('h2', { id: titleId }, title));
  document.body.append(dialog);
  return { dialog, close, cancel: h('button', { type: 'button', class: 'button quiet', on: { click: close } }, 'Cancel') };
}

/** Saves `change` to the type or room at `path` (PATCH) from a dialog's `form` (`button`: its
 *  save button): on success the dialog closes, the saved name is announced and `reload` runs;
 *  a refusal is shown in the form, naming each field. */
export function saveFromDialog(form, button, path, change, close, reload) {
  return submitForm(form, button, async () => {
    const saved = await api.request('PATCH', path, { body: change });
    close();
    toast(`${saved.data.name} saved`, 'success');
    announce(`${saved.data.name} saved`);
    reload();
  }, { label: 'Saving…', focus: true });
}

// The consultation's diagnoses: each an active problem of the record, or a new diagnosis named
// here with its certainty, which may join the problem list when it is confirmed or presumptive
// (the API's rule). Added to the visit's list, each with Remove.

import { h, replace, field, select, announce, words, uid } from '../ui.js';

const CERTAINTIES = ['confirmed', 'presumptive', 'differential', 'ruled_out'];
/** Certainties a diagnosis may join the problem list with (the API's rule). */
const LISTABLE = ['confirmed', 'presumptive'];

/** The "Diagnoses" fieldset over `ctx.diagnoses` (the list of the consultation screen `ctx`,
 *  whose record's active problems are offered). `changed()`: the list changed;
 *  `refuse(errors)`: shows field errors in the form. Returns {element, draw, follow}: `draw()`
 *  shows the list again, `follow()` fits the fields to the choice of problem and certainty. */
export function diagnosesFieldset(ctx, { changed, refuse }) {
  const active = ctx.record.problems.filter((p) => (p.status || 'active') === 'active');
  const source = select([['new', 'A new diagnosis'], ...active.map((p) => [p.id, `Active problem: ${p.name}`])]);
  const dxName = h('input', { type: 'text', maxlength: 200, autocomplete: 'off' });
  const certainty = select(CERTAINTIES.map((c) => [c, words(c)]), { value: 'presumptive' });
  const toList = h('input', { type: 'checkbox', id: uid('to-list') });
  const toListBox = h('div', { class: 'field check' }, toList, h('label', { for: toList.id }, 'Add it to the problem list'));
  const add = h('button', { type: 'button', class: 'button' }, 'Add diagnosis');
  const nameField = field('Diagnosis', dxName, { fieldName: 'diagnosisName' });
  const list = h('ul', { class: 'plain entries diagnosis-list', 'aria-label': 'Diagnoses of this visit' });

  // An active problem of the record, or a new one (which may join the list).
  function follow() {
    const fresh = source.value === 'new';
    nameField.hidden = !fresh;
    toListBox.hidden = !fresh;
    toList.disabled = !LISTABLE.includes(certainty.value);
    if (toList.disabled) toList.checked = false;
  }
  source.addEventListener('change', follow);
  certainty.addEventListener('change', follow);

  function draw() {
    replace(list, ctx.diagnoses.map((d, i) => h('li', { class: 'row spread', dataset: { diagnosis: String(i) } },
      h('span', {}, h('strong', {}, d.name), ` · ${words(d.certainty)}`,
        d.problemId ? h('span', { class: 'muted' }, ' · on the problem list') : d.addToProblemList ? h('span', { class: 'muted' }, ' · joins the problem list') : null),
      h('button', { type: 'button', class: 'button quiet', 'aria-label': `Remove diagnosis: ${d.name}`, on: { click: () => { ctx.diagnoses.splice(i, 1); draw(); changed(); } } }, 'Remove'))));
    list.hidden = !ctx.diagnoses.length;
  }

  add.addEventListener('click', () => {
    const problem = active.find((p) => p.id === source.value);
    const name = problem ? problem.name : dxName.value.trim();
    if (!name) { refuse([{ field: 'diagnosisName', message: 'Name the diagnosis first.' }]); dxName.focus(); return; }
    const entry = { name, certainty: certainty.value };
    if (problem) entry.problemId = problem.id;
    else if (toList.checked && LISTABLE.includes(certainty.value)) entry.addToProblemList = true;
    ctx.diagnoses.push(entry);
    dxName.value = '';
    toList.checked = false;
    source.value = 'new';
    follow();
    draw();
    changed();
    announce(`Diagnosis added: ${name}`);
  });

  const element = h('fieldset', { class: 'panel glass' }, h('legend', {}, 'Diagnoses'),
    h('div', { class: 'grid-fields' },
      field('Problem or new diagnosis', source, { fieldName: 'diagnoses' }),
      nameField,
      field('Certainty', certainty, { fieldName: 'certainty' })),
    h('div', { class: 'row wrap' }, toListBox, add),
    list);
  return { element, draw, follow };
}

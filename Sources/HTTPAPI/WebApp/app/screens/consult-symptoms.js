// The consultation's observed symptoms: typed one at a time and added to a list (Enter adds,
// rather than sending the form), each with Remove. The visit record has no place for them: the
// API keeps them in the record as a clinical note (Objective) saved with the visit.

import { h, replace, field, announce } from '../ui.js';

/** The "Observed symptoms" fieldset over `ctx.symptoms` (the list of the consultation screen
 *  `ctx`). `changed()`: the list changed; `refuse(errors)`: shows field errors in the form.
 *  Returns {element, draw}: `draw()` shows the list again. */
export function symptomsFieldset(ctx, { changed, refuse }) {
  const input = h('input', { type: 'text', maxlength: 200, autocomplete: 'off' });
  const add = h('button', { type: 'button', class: 'button' }, 'Add symptom');
  const list = h('ul', { class: 'plain entries symptom-list', 'aria-label': 'Observed symptoms' });

  function draw() {
    replace(list, ctx.symptoms.map((text, i) => h('li', { class: 'row spread' }, h('span', {}, text),
      h('button', { type: 'button', class: 'button quiet', 'aria-label': `Remove symptom: ${text}`, on: { click: () => { ctx.symptoms.splice(i, 1); draw(); changed(); } } }, 'Remove'))));
    list.hidden = !ctx.symptoms.length;
  }
  function take() {
    const text = input.value.trim();
    if (!text) { refuse([{ field: 'symptoms', message: 'Type the symptom first.' }]); input.focus(); return; }
    if (!ctx.symptoms.includes(text)) ctx.symptoms.push(text);
    input.value = '';
    draw();
    changed();
    announce(`Symptom added: ${text}`);
    input.focus();
  }
  add.addEventListener('click', take);
  input.addEventListener('keydown', (event) => { if (event.key === 'Enter') { event.preventDefault(); take(); } });

  const element = h('fieldset', { class: 'panel glass' }, h('legend', {}, 'Observed symptoms'),
    h('div', { class: 'inline-form' }, field('Symptom', input, { fieldName: 'symptoms' }), add),
    list,
    h('p', { class: 'hint' }, 'The visit record has no place for symptoms: they are kept in the record as a clinical note (Objective) saved with the visit.'));
  return { element, draw };
}

// The Share button and its panel: the link goes to the clipboard when the browser allows it and is
// always shown in a read-only field to copy by hand.
import { h } from './dom.js';
import { copyText } from './files.js';
import { encodeProblemFragment, LONG_LINK_CHARS } from './share.js';

export function createSharePanel({ getProblem, beforeShare = () => {} }) {
  const field = h('input', { type: 'text', id: 'share-link', readonly: true, 'aria-describedby': 'share-message' });
  const message = h('p', { id: 'share-message', class: 'share-message', role: 'status' });
  const copy = h('button', { type: 'button', text: 'Copy' });
  const close = h('button', { type: 'button', text: 'Close' });
  const element = h('div', { class: 'share-panel', id: 'share-panel', hidden: true },
    h('label', { for: 'share-link', text: 'Link to this problem' }),
    h('div', { class: 'share-row' }, field, copy, close), message);

  function describe(url, copied) {
    const parts = [copied ? 'Link copied to the clipboard.' : 'Copy the link above (the browser did not allow copying).'];
    parts.push(`It holds the whole problem (${url.length.toLocaleString('en-US')} characters).`);
    if (url.length > LONG_LINK_CHARS) {
      parts.push(`Warning: links over about ${LONG_LINK_CHARS.toLocaleString('en-US')} characters may be cut by chat apps, mail or browsers; export the problem as a file instead.`);
    }
    message.textContent = parts.join(' ');
    message.classList.toggle('warn', url.length > LONG_LINK_CHARS);
  }

  async function share() {
    const checked = await beforeShare();
    const fragment = await encodeProblemFragment(getProblem());
    const url = location.href.split('#')[0] + fragment;
    field.value = url;
    element.hidden = false;
    field.focus();
    field.select();
    describe(url, await copyText(url));
    if (checked?.jsonInvalid) {
      message.textContent += ' Note: the JSON text does not parse, so the link holds the last problem that did.';
    } else if (checked && !checked.ok && !checked.unavailable) {
      const more = checked.errors.length > 1 ? ` and ${checked.errors.length - 1} more` : '';
      message.textContent += ` Note: the problem is not valid yet (${checked.errors[0]}${more}); the link holds it as it is.`;
    }
  }

  copy.addEventListener('click', async () => {
    field.select();
    describe(field.value, await copyText(field.value));
  });
  close.addEventListener('click', () => { element.hidden = true; });
  return { element, share };
}

// A small Markdown reader for the project's own docs: the subset they use (ATX headings, paragraphs,
// lists, fenced code, GitHub tables, block quotes, code spans, emphasis, links, images), parsed
// into blocks that render-docs.mjs turns into HTML and tests/docs_links.test.mjs checks.
// Every piece of text is escaped: raw HTML in the Markdown is shown as text (comments are dropped),
// never passed through. Anchors follow GitHub's rules, so a link works the same on GitHub and in
// the copy served with the page.

// GitHub's heading anchors (github-slugger): lower case, every character that is not a letter,
// mark, digit, connector ("_"), hyphen or space dropped, each space a hyphen; a repeat gets -1, -2...
export function slugify(text) {
  return text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

export function createSlugger() {
  const seen = new Map();
  return (text) => {
    const base = slugify(text);
    let slug = base;
    while (seen.has(slug)) {
      const n = seen.get(base) + 1;
      seen.set(base, n);
      slug = `${base}-${n}`;
    }
    seen.set(slug, 0);
    return slug;
  };
}

export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

// ---- inline ----------------------------------------------------------------------------------

const PUNCTUATION = /[!-/:-@[-`{-~]/;

// Where the bracket opened at `open` closes (nested brackets counted, code spans skipped), or -1.
function closingBracket(text, open) {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') { i++; continue; }
    if (c === '`') {
      const run = /^`+/.exec(text.slice(i))[0];
      const end = text.indexOf(run, i + run.length);
      if (end >= 0) { i = end + run.length - 1; continue; }
    }
    if (c === '[') depth++;
    if (c === ']' && --depth === 0) return i;
  }
  return -1;
}

// Inline nodes: {type: 'text'|'code'|'strong'|'em'|'link'|'image', ...}.
export function parseInline(text) {
  const nodes = [];
  let plain = '';
  const flush = () => { if (plain) nodes.push({ type: 'text', text: plain }); plain = ''; };
  for (let i = 0; i < text.length; ) {
    const c = text[i];
    const rest = text.slice(i);
    if (c === '\\' && i + 1 < text.length && PUNCTUATION.test(text[i + 1])) {
      plain += text[i + 1];
      i += 2;
      continue;
    }
    if (c === '`') {
      const run = /^`+/.exec(rest)[0];
      const end = text.indexOf(run, i + run.length);
      if (end >= 0 && text[end + run.length] !== '`') {
        flush();
        let code = text.slice(i + run.length, end).replace(/\n/g, ' ');
        if (/^ .* $/.test(code) && code.trim()) code = code.slice(1, -1);
        nodes.push({ type: 'code', text: code });
        i = end + run.length;
        continue;
      }
      plain += run;
      i += run.length;
      continue;
    }
    if (c === '!' && text[i + 1] === '[' || c === '[') {
      const open = c === '!' ? i + 1 : i;
      const close = closingBracket(text, open);
      const target = close >= 0 ? /^\(([^()\s]*(?:\([^()\s]*\)[^()\s]*)*)(?:\s+"([^"]*)")?\)/.exec(text.slice(close + 1)) : null;
      if (target) {
        flush();
        const inner = text.slice(open + 1, close);
        if (c === '!') nodes.push({ type: 'image', alt: inner, href: target[1] });
        else nodes.push({ type: 'link', href: target[1], children: parseInline(inner) });
        i = close + 1 + target[0].length;
        continue;
      }
    }
    const auto = /^<(https?:\/\/[^\s<>]+)>/.exec(rest) || (/^https?:\/\/[^\s<>()]*[^\s<>().,;:!?'"*_]/.exec(rest));
    if (auto && !/[\p{L}\p{N}]$/u.test(plain)) {
      flush();
      const href = auto[1] ?? auto[0];
      nodes.push({ type: 'link', href, children: [{ type: 'text', text: href }] });
      i += auto[0].length;
      continue;
    }
    const strong = /^(\*\*|__)(?=\S)([\s\S]*?\S)\1/.exec(rest);
    if (strong && (strong[1] === '**' || wordBoundary(text, i, strong[0].length))) {
      flush();
      nodes.push({ type: 'strong', children: parseInline(strong[2]) });
      i += strong[0].length;
      continue;
    }
    const em = /^([*_])(?=[^\s*_])([\s\S]*?[^\s\\])\1(?![*_])/.exec(rest);
    if (em && (em[1] === '*' || wordBoundary(text, i, em[0].length))) {
      flush();
      nodes.push({ type: 'em', children: parseInline(em[2]) });
      i += em[0].length;
      continue;
    }
    plain += c;
    i++;
  }
  flush();
  return nodes;
}

// "_" opens and closes emphasis only between words, never inside one (snake_case stays as written).
function wordBoundary(text, start, length) {
  const word = /[\p{L}\p{N}]/u;
  return !word.test(text[start - 1] ?? '') && !word.test(text[start + length] ?? '');
}

export function inlineText(nodes) {
  return nodes.map((n) => (n.type === 'text' || n.type === 'code' ? n.text : n.type === 'image' ? n.alt : inlineText(n.children))).join('');
}

// ---- blocks ----------------------------------------------------------------------------------

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const BULLET = /^( {0,3})([-*+])( +)(.*)$/;
const ORDERED = /^( {0,3})(\d{1,9})([.)])( +)(.*)$/;
const QUOTE = /^ {0,3}> ?(.*)$/;
const COMMENT_LINE = /^ {0,3}<!--.*-->\s*$/;
const TABLE_DELIMITER = /^ *\|? *:?-+:? *(\| *:?-+:? *)*\|? *$/;

// Splits a table row on its unescaped bars; "\|" stands for a bar inside a cell, code included.
export function tableCells(line) {
  let row = line.trim();
  if (row.startsWith('|')) row = row.slice(1);
  if (row.endsWith('|') && !row.endsWith('\\|')) row = row.slice(0, -1);
  const cells = [];
  let cell = '';
  for (let i = 0; i < row.length; i++) {
    if (row[i] === '\\' && row[i + 1] === '|') { cell += '|'; i++; continue; }
    if (row[i] === '|') { cells.push(cell.trim()); cell = ''; continue; }
    cell += row[i];
  }
  cells.push(cell.trim());
  return cells;
}

function listMarker(line) {
  const b = BULLET.exec(line);
  if (b) return { ordered: false, indent: b[1].length + 1 + b[3].length, text: b[4], start: 1 };
  const o = ORDERED.exec(line);
  if (o) return { ordered: true, indent: o[1].length + o[2].length + 1 + o[4].length, text: o[5], start: Number(o[2]) };
  return null;
}

const blank = (line) => line.trim() === '';

// Would this line begin a block other than a paragraph (and so end a paragraph)?
function startsBlock(line) {
  return FENCE.test(line) || HEADING.test(line) || QUOTE.test(line) || listMarker(line) !== null || COMMENT_LINE.test(line);
}

// Blocks: {type: 'heading', level, inline, line} | {type: 'paragraph', inline, line}
// | {type: 'code', lang, text, line} | {type: 'list', ordered, start, items: [blocks[]], line}
// | {type: 'table', align, head: [inline], rows: [[inline]], line} | {type: 'quote', blocks, line}.
// `line` is 1-based within the text given (offset adds the lines before it).
export function parseBlocks(text, offset = 0) {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const blocks = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    const at = offset + i + 1;
    if (blank(line) || COMMENT_LINE.test(line)) { i++; continue; }
    const fence = FENCE.exec(line);
    if (fence) {
      const body = [];
      const indent = /^ */.exec(line)[0].length;
      for (i++; i < lines.length && !new RegExp(`^ {0,3}${fence[1][0]}{${fence[1].length},}\\s*$`).test(lines[i]); i++)
        body.push(lines[i].slice(Math.min(indent, /^ */.exec(lines[i])[0].length)));
      i++;
      blocks.push({ type: 'code', lang: fence[2].trim(), text: body.join('\n'), line: at });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({ type: 'heading', level: heading[1].length, inline: parseInline(heading[2] ?? ''), line: at });
      i++;
      continue;
    }
    if (QUOTE.test(line)) {
      const body = [];
      for (; i < lines.length && !blank(lines[i]) && (QUOTE.test(lines[i]) || !startsBlock(lines[i])); i++)
        body.push(QUOTE.exec(lines[i])?.[1] ?? lines[i]);
      blocks.push({ type: 'quote', blocks: parseBlocks(body.join('\n'), at - 1), line: at });
      continue;
    }
    if (line.includes('|') && i + 1 < lines.length && TABLE_DELIMITER.test(lines[i + 1]) && lines[i + 1].includes('-')) {
      const head = tableCells(line);
      const align = tableCells(lines[i + 1]).map((d) => (d.startsWith(':') && d.endsWith(':') ? 'center' : d.endsWith(':') ? 'right' : d.startsWith(':') ? 'left' : ''));
      const rows = [];
      const rowLines = [];
      for (i += 2; i < lines.length && !blank(lines[i]) && lines[i].includes('|') && !startsBlock(lines[i]); i++) {
        rows.push(tableCells(lines[i]).slice(0, head.length).map(parseInline));
        rowLines.push(offset + i + 1);
      }
      blocks.push({ type: 'table', align, head: head.map(parseInline), rows, rowLines, line: at });
      continue;
    }
    const marker = listMarker(line);
    if (marker) {
      const list = { type: 'list', ordered: marker.ordered, start: marker.start, items: [], line: at };
      while (i < lines.length) {
        const m = listMarker(lines[i]);
        if (!m || m.ordered !== list.ordered) break;
        const itemStart = i;
        const body = [m.text];
        let lazy = true;  // the item's last line is paragraph text: an unindented line continues it
        for (i++; i < lines.length; i++) {
          const next = lines[i];
          if (blank(next)) {
            let j = i;
            while (j < lines.length && blank(lines[j])) j++;
            if (j < lines.length && /^ */.exec(lines[j])[0].length >= m.indent) {
              for (; i < j; i++) body.push('');
              i--;
              lazy = false;
              continue;
            }
            break;
          }
          const indent = /^ */.exec(next)[0].length;
          if (indent >= m.indent) { body.push(next.slice(m.indent)); lazy = !startsBlock(next.slice(m.indent)); continue; }
          if (lazy && !startsBlock(next)) { body.push(next.trim()); continue; }
          break;
        }
        list.items.push(parseBlocks(body.join('\n'), offset + itemStart));
        while (i < lines.length && blank(lines[i]) && listMarker(lines[i + 1] ?? '')?.ordered === list.ordered) i++;
      }
      blocks.push(list);
      continue;
    }
    const body = [];
    for (; i < lines.length && !blank(lines[i]) && (body.length === 0 || !startsBlock(lines[i])); i++) {
      if (body.length && lines[i + 1] !== undefined && lines[i].includes('|') && TABLE_DELIMITER.test(lines[i + 1])) break;
      body.push(lines[i].trim());
    }
    blocks.push({ type: 'paragraph', inline: parseInline(body.join('\n')), line: at });
  }
  return blocks;
}

// Every heading with its GitHub anchor, in order: [{level, text, slug, line}].
export function headings(blocks, slugger = createSlugger(), out = []) {
  for (const b of blocks) {
    if (b.type === 'heading') {
      const text = inlineText(b.inline).trim();
      out.push({ level: b.level, text, slug: slugger(text), line: b.line });
    } else if (b.type === 'list') {
      for (const item of b.items) headings(item, slugger, out);
    } else if (b.type === 'quote') {
      headings(b.blocks, slugger, out);
    }
  }
  return out;
}

// Every link and image target with the line it is on: [{href, text, line, image}].
export function links(blocks, out = []) {
  const visit = (nodes, line) => {
    for (const n of nodes) {
      if (n.type === 'link') out.push({ href: n.href, text: inlineText(n.children), line, image: false });
      if (n.type === 'image') out.push({ href: n.href, text: n.alt, line, image: true });
      if (n.children) visit(n.children, line);
    }
  };
  for (const b of blocks) {
    if (b.type === 'heading' || b.type === 'paragraph') visit(b.inline, b.line);
    if (b.type === 'table') {
      b.head.forEach((cell) => visit(cell, b.line));
      b.rows.forEach((row, r) => row.forEach((cell) => visit(cell, b.rowLines[r])));
    }
    if (b.type === 'list') b.items.forEach((item) => links(item, out));
    if (b.type === 'quote') links(b.blocks, out);
  }
  return out;
}

// ---- HTML ------------------------------------------------------------------------------------

const SAFE_URL = /^(https?:|mailto:|#|[^:]*$)/i;

// resolveHref(href, {image}) maps a link target to the URL to write, or null to show the text only.
export function renderHtml(blocks, { resolveHref = (href) => href, slugger = createSlugger() } = {}) {
  const inline = (nodes) => nodes.map((n) => {
    switch (n.type) {
      case 'text': return escapeHtml(n.text);
      case 'code': return `<code>${escapeHtml(n.text)}</code>`;
      case 'strong': return `<strong>${inline(n.children)}</strong>`;
      case 'em': return `<em>${inline(n.children)}</em>`;
      case 'image': {
        const src = SAFE_URL.test(n.href) ? resolveHref(n.href, { image: true }) : null;
        return src ? `<img src="${escapeHtml(src)}" alt="${escapeHtml(n.alt)}">` : escapeHtml(n.alt);
      }
      case 'link': {
        const href = SAFE_URL.test(n.href) ? resolveHref(n.href, { image: false }) : null;
        return href === null ? inline(n.children) : `<a href="${escapeHtml(href)}">${inline(n.children)}</a>`;
      }
      default: return '';
    }
  }).join('');
  const block = (b, tight = false) => {
    switch (b.type) {
      case 'heading': {
        const text = inlineText(b.inline).trim();
        return `<h${b.level} id="${escapeHtml(slugger(text))}">${inline(b.inline)}</h${b.level}>`;
      }
      case 'paragraph': return tight ? inline(b.inline) : `<p>${inline(b.inline)}</p>`;
      case 'code': return `<pre><code${b.lang ? ` class="language-${escapeHtml(b.lang)}"` : ''}>${escapeHtml(b.text)}</code></pre>`;
      case 'quote': return `<blockquote>${b.blocks.map((x) => block(x)).join('\n')}</blockquote>`;
      case 'list': {
        const tag = b.ordered ? 'ol' : 'ul';
        const start = b.ordered && b.start !== 1 ? ` start="${b.start}"` : '';
        // An item's first paragraph stands without <p>, as in a tight list.
        const items = b.items.map((item) => `<li>${item.map((x, k) => block(x, k === 0)).join('\n')}</li>`);
        return `<${tag}${start}>\n${items.join('\n')}\n</${tag}>`;
      }
      case 'table': {
        const cell = (tag, nodes, k) => `<${tag}${b.align[k] ? ` style="text-align:${b.align[k]}"` : ''}>${inline(nodes)}</${tag}>`;
        const head = `<tr>${b.head.map((c, k) => cell('th', c, k)).join('')}</tr>`;
        const rows = b.rows.map((r) => `<tr>${b.head.map((_, k) => cell('td', r[k] ?? [], k)).join('')}</tr>`);
        return `<div class="table-wrap"><table>\n<thead>${head}</thead>\n<tbody>\n${rows.join('\n')}\n</tbody>\n</table></div>`;
      }
      default: return '';
    }
  };
  return blocks.map((b) => block(b)).join('\n');
}

// Field paths as the planner's messages write them: `gpus[3].compute_util`, `network.site_links[0].from`.

// A key may hold '-' (site names such as "us-east" in `sites.us-east.pue`); "" is the unnamed site.
const PATH_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*(\[\d+\])?(\.([A-Za-z_][A-Za-z0-9_-]*|"")(\[\d+\])?)*$/;

export function isPath(text) {
  return PATH_PATTERN.test(text);
}

// 'gpus[3].compute_util' -> ['gpus', 3, 'compute_util']
export function parsePath(path) {
  const parts = [];
  for (const piece of path.split('.')) {
    const match = /^([^[]+)((\[\d+\])*)$/.exec(piece);
    if (!match) return [];
    parts.push(match[1]);
    for (const index of match[2].matchAll(/\[(\d+)\]/g)) parts.push(Number(index[1]));
  }
  return parts;
}

export function formatPath(parts) {
  let text = '';
  for (const part of parts) text += typeof part === 'number' ? `[${part}]` : (text ? '.' : '') + part;
  return text;
}

// The message's leading path and its text: 'gpus[3].compute_util: must be ...' -> {path, text}.
export function splitMessage(message) {
  const at = message.indexOf(': ');
  if (at > 0 && isPath(message.slice(0, at))) return { path: message.slice(0, at), text: message.slice(at + 2) };
  return { path: '', text: message };
}

// Shorter and shorter prefixes: 'a[1].b' -> ['a[1].b', 'a[1]', 'a'].
export function pathPrefixes(path) {
  const parts = parsePath(path);
  const prefixes = [];
  for (let n = parts.length; n > 0; --n) prefixes.push(formatPath(parts.slice(0, n)));
  return prefixes;
}

export function getPath(object, path) {
  let value = object;
  for (const part of typeof path === 'string' ? parsePath(path) : path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = value[part];
  }
  return value;
}

export function isPlainObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

// Sets (or, with value undefined, deletes) a field, creating objects on the way.
export function setPath(object, path, value) {
  const parts = typeof path === 'string' ? parsePath(path) : path;
  let node = object;
  for (let i = 0; i < parts.length - 1; ++i) {
    const part = parts[i];
    const wantArray = typeof parts[i + 1] === 'number';
    if (wantArray ? !Array.isArray(node[part]) : !isPlainObject(node[part])) {
      if (value === undefined) return object;
      node[part] = wantArray ? [] : {};
    }
    node = node[part];
  }
  const last = parts[parts.length - 1];
  if (value === undefined) {
    if (Array.isArray(node) && typeof last === 'number') node.splice(last, 1);
    else delete node[last];
  } else {
    node[last] = value;
  }
  return object;
}

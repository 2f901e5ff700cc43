// One text per problem whatever the order of its keys: clearing a field and typing it again puts
// the key last in its object, and the problem must still count as the one a plan was made for.
export function problemKey(value) {
  if (Array.isArray(value)) return `[${value.map(problemKey).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).filter((k) => value[k] !== undefined).sort().map((k) => `${JSON.stringify(k)}:${problemKey(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

// The key of a problem given as JSON text (what runs and studies keep); null when it is no JSON.
export function problemTextKey(text) {
  try {
    return problemKey(JSON.parse(text));
  } catch {
    return null;
  }
}

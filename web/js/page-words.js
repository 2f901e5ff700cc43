// The planner's messages are written for the command line and the file format ("use --method
// memetic", "No gpus[].host for ..."). The page says the same in the names of its own controls
// (issue 24 point 7): every message from the planner that the page shows goes through pageWords().

const METHOD_NAMES = {
  memetic: '“Memetic search”',
  exact: '“Exact”',
  'brute-force': '“Brute force”',
  metis: '“METIS-style”',
  'metis-improved': '“METIS-style, improved”',
  uniform: '“Uniform”',
};

const REWRITES = [
  // Hybrid exact / brute force refused (core/search/space/hybrid_methods.cpp, brute_force.cpp).
  [/use --method memetic, or search\.parallelism "pipeline"/g, 'choose the method “Memetic search”, or set Parallelism to “pipeline” (Objective & search tab)'],
  [/use --method exact or memetic/g, 'choose the method “Exact” or “Memetic search”'],
  [/--method ([a-z-]+)/g, (_, name) => `the method ${METHOD_NAMES[name] ?? name}`],
  [/--time-limit/g, 'the Time limit (Objective & search tab)'],
  [/--max-nodes/g, 'the node budget'],
  // The launch bundle's assumptions (core/launch/rank_map.cpp) name the GPU table's columns.
  [/No gpus\[\]\.host for node\(s\) /g, 'No Host (GPU table) for '],
  [/No gpus\[\]\.node for /g, 'No Node (GPU table) for '],
  [/No gpus\[\]\.device for /g, 'No Device (GPU table) for '],
  [/gpus\[\]\.(host|node|device)/g, (_, key) => `${key[0].toUpperCase()}${key.slice(1)} (GPU table)`],
  [/search\.parallelism "(pipeline|hybrid)"/g, 'Parallelism “$1” (Objective & search tab)'],
  [/search\.engine "([a-z-]+)"/g, 'Engine “$1” (Objective & search tab)'],
  // The launch notes (core/launch/*_args.cpp) point at the fields that would settle them.
  [/\(the problem file has no head count\)/g, '(Attention heads is empty in the Model tab)'],
  [/the problem file has no training\.iterations/g, 'Iterations is empty in the Sites & costs tab'],
  [/training\.iterations/g, 'Iterations (Sites & costs tab)'],
  [/search\.micro_batch_size "auto"/g, 'Micro-batch size “auto” (Objective & search tab)'],
];

export function pageWords(text) {
  let out = String(text ?? '');
  for (const [pattern, replacement] of REWRITES) out = out.replace(pattern, replacement);
  return out;
}

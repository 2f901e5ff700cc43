#!/usr/bin/env node
// Copies the project's example problems into web/examples/ and writes web/examples/index.json
// ([{file, name, description}], sorted by file name) so that the static page can list them.
// usage: node web/tools/copy-examples.mjs [SOURCE_DIR] [TARGET_DIR]
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const DEFAULT_SOURCE = resolve(here, '../../examples');
const DEFAULT_TARGET = resolve(here, '../examples');

export async function copyExamples(source = DEFAULT_SOURCE, target = DEFAULT_TARGET) {
  const files = (await readdir(source)).filter((f) => f.endsWith('.json') && f !== 'index.json').sort();
  await mkdir(target, { recursive: true });
  // Examples removed from the source must not linger in the copy.
  for (const stale of await readdir(target)) {
    if (stale.endsWith('.json') && !files.includes(stale)) await rm(join(target, stale));
  }
  const index = [];
  for (const file of files) {
    const text = await readFile(join(source, file), 'utf8');
    let problem;
    try {
      problem = JSON.parse(text);
    } catch (error) {
      throw new Error(`${file}: not valid JSON (${error.message})`);
    }
    if (!problem || typeof problem !== 'object' || Array.isArray(problem))
      throw new Error(`${file}: must hold a JSON object`);
    await writeFile(join(target, file), text);
    index.push({
      file,
      name: typeof problem.name === 'string' ? problem.name : basename(file, '.json'),
      description: typeof problem.description === 'string' ? problem.description : '',
    });
  }
  await writeFile(join(target, 'index.json'), JSON.stringify(index, null, 2) + '\n');
  return index;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [source, target] = process.argv.slice(2);
  copyExamples(source && resolve(source), target && resolve(target))
    .then((index) => console.log(`copied ${index.length} examples into ${target || DEFAULT_TARGET}`))
    .catch((error) => {
      console.error(`copy-examples: ${error.message}`);
      process.exit(1);
    });
}

// One colour per site and a shade of it per GPU, the same in every view, chosen from the problem
// (not the result) so a GPU keeps its colour when the plan changes.

import {siteLabel} from './format.js';

// Hues of a colour-blind-friendly categorical palette (Okabe-Ito / Tableau-like), in HSL degrees.
const SITE_HUES = [212, 28, 142, 355, 271, 45, 186, 320, 95, 0];

function hueOf(index) {
  if (index < SITE_HUES.length) return SITE_HUES[index];
  return Math.round((index * 137.508) % 360); // golden-angle hues beyond the palette
}

/**
 * colours.site(site) and colours.gpu(id) for a validated problem; sites keep the order in which
 * they first appear in problem.gpus. colours.sites lists [{site, label, colour, gpus: [gpu]}].
 */
export function colourScheme(problem) {
  const gpus = Array.isArray(problem?.gpus) ? problem.gpus : [];
  const siteIndex = new Map();
  const sites = [];
  for (const gpu of gpus) {
    const key = siteKey(gpu.site);
    if (!siteIndex.has(key)) {
      siteIndex.set(key, sites.length);
      sites.push({site: key, label: siteLabel(gpu.site), gpus: []});
    }
    sites[siteIndex.get(key)].gpus.push(gpu);
  }
  const gpuColour = new Map();
  sites.forEach((entry, index) => {
    const hue = hueOf(index);
    entry.hue = hue;
    entry.colour = `hsl(${hue} 62% 46%)`;
    entry.light = `hsl(${hue} 70% 95%)`;
    const n = entry.gpus.length;
    entry.gpus.forEach((gpu, k) => {
      // Shades of the site hue, light enough for dark text on top.
      const lightness = n === 1 ? 66 : 58 + Math.round((k / (n - 1)) * 22);
      gpuColour.set(gpu.id, {hue, lightness});
    });
  });
  const gpuById = new Map(gpus.map((g) => [g.id, g]));
  return {
    sites,
    gpuById,
    site: (site) => sites[siteIndex.get(siteKey(site))]?.colour ?? 'hsl(0 0% 55%)',
    siteLight: (site) => sites[siteIndex.get(siteKey(site))]?.light ?? 'hsl(0 0% 95%)',
    // darken: lightness points to take off (the timeline draws backward work darker than forward).
    gpu: (id, darken = 0) => {
      const c = gpuColour.get(id);
      return c ? `hsl(${c.hue} 58% ${c.lightness - darken}%)` : `hsl(0 0% ${60 - darken}%)`;
    },
  };
}

function siteKey(site) {
  return site === undefined || site === null ? '' : String(site);
}

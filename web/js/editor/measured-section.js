// The editor's Measured tab: a real cluster's figures in (tool outputs) and measured runs back
// (calibration). Both preview before they change the problem; the problem's own fields are edited
// in the other tabs, where each figure shows where it came from (figure-sources.js).
import { h } from '../dom.js';
import { createCalibratePanel } from './measured-calibrate.js';
import { createImportPanel } from './measured-import.js';

export function createMeasuredSection(ctx) {
  const importer = createImportPanel(ctx);
  const calibrator = createCalibratePanel(ctx);
  const legend = h('p', { class: 'intro', text: 'In the other tabs a figure read from a file has a blue edge, a fitted one green, an assumed one amber; give it the focus to read where it came from. Typing over a figure makes it yours ("typed").' });
  const element = h('div', { class: 'measured' }, legend, importer.element, calibrator.element);
  return {
    name: 'measured',
    element,
    render() {},  // its inputs are its own, not the problem's
    showResult: (result) => calibrator.showResult(result),
  };
}

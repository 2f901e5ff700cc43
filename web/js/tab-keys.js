// The WAI-ARIA tabs pattern's keys, shared by the editor's tabs and the launch view's: Left and
// Right move to the neighbouring tab (wrapping around), Home and End to the first and last.
// Returns the index of the tab to select, or null for any other key.
export function tabKeyTarget(event, index, count) {
  const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
  if (step) return (index + step + count) % count;
  if (event.key === 'Home') return 0;
  if (event.key === 'End') return count - 1;
  return null;
}

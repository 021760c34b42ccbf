// "Launcher file": a placement out of the report as the file an MPI launcher or Slurm takes
// (`placelab hostfile`'s formats, src/formats/hostfile.rs, run in the text worker on the complete
// report). Each view that places tasks or jobs adds one row: what to pick (a strategy, a policy
// and a job), a format, and Download, which sends an `export` event the page turns into the file.
import { el } from '../dom.js';

/** The formats (`placelab hostfile --format`): id, label, file name suffix. */
export const LAUNCHER_FORMATS = [
  ['mpich', 'MPICH machinefile', 'machinefile'], ['openmpi', 'Open MPI hostfile', 'hostfile'],
  ['rankfile', 'Open MPI rankfile', 'rankfile'], ['slurm-hostfile', 'SLURM_HOSTFILE', 'slurm-hostfile'],
  ['nodelist', 'Slurm nodelist', 'nodelist'],
];

/** A placement's SimGrid files (`placelab hostfile --format`, as `placelab netsim` writes them). */
export const SIMGRID_FORMATS = [
  ['simgrid-platform', 'SimGrid platform (XML)', 'platform.xml'], ['simgrid-deployment', 'SimGrid deployment (XML)', 'deployment.xml'],
];

/**
 * The row: `pickers` (elements the view made, e.g. a strategy select), a format select (of
 * `formats`) and the button; `pick()` gives the export's {case, strategy, job} at the click;
 * `title` says what is downloaded.
 */
export function launcherRow({ pickers, pick, title, formats = LAUNCHER_FORMATS }) {
  const format = el('select', { 'data-testid': 'hostfile-format', 'aria-label': 'launcher file format' },
    formats.map(([id, label]) => el('option', { value: id, text: label })));
  const button = el('button', { type: 'button', class: 'secondary', text: 'Download', 'data-testid': 'export-hostfile', title });
  button.addEventListener('click', () => {
    const [, , suffix] = formats.find(([id]) => id === format.value);
    button.dispatchEvent(new CustomEvent('export', { bubbles: true, detail: { name: 'hostfile', format: format.value, suffix, ...pick() } }));
  });
  return el('div', { class: 'layers' }, el('span', { class: 'muted', text: 'Launcher file' }), ...pickers, format, button);
}

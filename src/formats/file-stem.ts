/**
 * The stem of a file name made from a run's label (a path, a URL's last part, an untrusted file name):
 * the last path part without `.json`, characters no file system takes (control characters,
 * `<>:"|?*`) replaced by `_`, at most 120 characters; `run` when nothing is left. One rule for every
 * file the app writes (the offline report, a shared episode).
 */
export const fileStem = (label: string): string =>
  label
    .replace(/^.*[\\/]/, '')
    .replace(/\.json$/i, '')
    .replace(/[\u0000-\u001f\u007f<>:"|?*]+/g, '_')
    .slice(0, 120) || 'run';

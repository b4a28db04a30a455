/**
 * Where τ²-bench's domain data lives: `<commit>/data/tau2/domains/<domain>/<file>` under a base
 * (raw file hosting of sierra-research/tau2-bench), or `data/tau2/domains/…` in a tau2-bench checkout.
 */
export const TAU2_REPOSITORY = 'sierra-research/tau2-bench';
/** v1.0.1 (2026-08-18); its DB files are unchanged since v0.1.0. */
export const TAU2_PINNED_COMMIT = 'a2c024725189473d2d7cea3a5cfdbcc67478e41f';
export const TAU2_DEFAULT_DATA_BASE = `https://raw.githubusercontent.com/${TAU2_REPOSITORY}`;

export const tau2DataPath = (domain: string, file: string, commit?: string): string => `${commit ? `${commit}/` : ''}data/tau2/domains/${domain}/${file}`;

/** Sizes in bytes as options take them (`--max-bytes 32MiB`) and as messages say them. */

const KiB = 1024;
export const MiB = 1024 * KiB;

/** A size as typed: bytes, or K, M, G (powers of 1024) with an optional `iB` or `B`: `32M`, `32MiB`, `512KiB`. */
export function parseSize(text: string): number | undefined {
  const m = /^(\d+)\s*(?:([KMG])(?:i?B)?|B)?$/i.exec(text.trim());
  if (!m) return undefined;
  const unit = { K: KiB, M: MiB, G: 1024 * MiB }[(m[2] ?? "").toUpperCase() as "K" | "M" | "G"] ?? 1;
  return Number(m[1]) * unit;
}

/** `33554432` -> `32 MiB`, for messages. */
export function formatSize(bytes: number): string {
  if (bytes % MiB === 0) return `${bytes / MiB} MiB`;
  if (bytes % KiB === 0) return `${bytes / KiB} KiB`;
  return `${bytes} bytes`;
}

/** `33554432` -> `32MiB`, as a size option takes it. */
export function flagSize(bytes: number): string {
  return formatSize(bytes).replace(" bytes", "").replace(" ", "");
}

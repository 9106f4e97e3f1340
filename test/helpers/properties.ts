/**
 * The size and seed of property tests (fast-check). Each property states its size for the CI run,
 * chosen so the unit project stays within the time CONTRIBUTING.md states, and a fixed seed, so a
 * CI run checks the same cases every time and cannot fail on a case no earlier run saw.
 *
 * A deep run explores further: `MCPGEN_PROPERTY_SCALE=20 npm run test:unit` runs twenty times the
 * cases, from a fresh random seed each run (fast-check prints the seed of a failure; give it back
 * with `MCPGEN_PROPERTY_SEED=<seed>` to replay it).
 */

const SCALE = readNumber("MCPGEN_PROPERTY_SCALE", 1);
const SEED = process.env["MCPGEN_PROPERTY_SEED"] === undefined ? undefined : readNumber("MCPGEN_PROPERTY_SEED", 0);

function readNumber(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === "") return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, not ${JSON.stringify(text)}`);
  return value;
}

/** How many cases to run (for a loop of random cases, not fast-check): the CI size times MCPGEN_PROPERTY_SCALE. */
export function propertyRuns(ciRuns: number): number {
  return ciRuns * SCALE;
}

/**
 * fast-check's parameters for a property of CI size `ciRuns` and CI seed `seed`: that seed in a
 * CI-sized run, a random one (or MCPGEN_PROPERTY_SEED) in a deep run.
 */
export function propertyParameters(ciRuns: number, seed: number): { numRuns: number; seed?: number } {
  const chosen = SEED ?? (SCALE === 1 ? seed : undefined);
  return { numRuns: propertyRuns(ciRuns), ...(chosen === undefined ? {} : { seed: chosen }) };
}

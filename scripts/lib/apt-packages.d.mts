// Types of apt-packages.mjs for the TypeScript callers (tests).
/** [package, file that proves it is installed, where it is needed]. */
export const APT_PACKAGES: [string, string, "runtime" | "build" | "local" | "image"][];

/**
 * What the fault suites share: their scale (short in `npm test`, full in `npm run faults`: FAULTS_SCALE=full), their
 * figures and the jobs both levels render.
 */
export const FULL = process.env.FAULTS_SCALE === "full";

/** `short` in npm test, `full` in npm run faults. */
export const scaled = (short: number, full: number): number => (FULL ? full : short);

/** Prints one figure line the faults script collects (`[faults] name: value`). */
export const figure = (name: string, value: string | number) => console.log(`[faults] ${name}: ${value}`);

/**
 * A gl shader taking seconds a frame (1e5 turns of sin a pixel, ~3 s on SwiftShader here) on a 64x64, 1 fps, 300 s
 * video: 300 frames would hold a render slot ~17 min; the Worker's deadline for it is 67 s. The renderer's fault
 * suite (render-limits) and the whole service's (test/e2e/faults/service-faults) both render it.
 */
export const SLOW_SHADER_VIDEO = {
  width: 64,
  height: 64,
  fps: 1,
  clips: [
    {
      duration: 300,
      layers: [
        {
          type: "gl",
          fragmentShader: `uniform float time; void main() { float c = 0.0;
  for (int i = 0; i < 100000; i++) c += sin(float(i) * gl_FragCoord.x + time);
  gl_FragColor = vec4(fract(c), 0.0, 0.0, 1.0); }`,
        },
      ],
    },
  ],
};

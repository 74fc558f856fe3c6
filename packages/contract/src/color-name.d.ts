/** The `color-name` package (CSS Color 4's named colours) ships no types: its one export, typed. */
declare module "color-name" {
  const colors: Record<string, [number, number, number]>;
  export default colors;
}

/** The transitions' thumbnails, one picture (build/transition-sprite.ts). */
declare module "virtual:transition-sprite" {
  const url: string;
  export default url;
}

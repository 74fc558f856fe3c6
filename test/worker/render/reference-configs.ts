/** One config per feature of the image grammar, each compared with a committed reference PNG. */
import { FILES } from "./harness.ts";

const canvas = (layers: unknown[], extra: Record<string, unknown> = {}) => ({
  width: 320,
  height: 200,
  backgroundColor: "#f0f0f0",
  layers,
  ...extra,
});
const photo = { type: "image", path: FILES.photo.url };
const BLOCK = "\u2588";

export const REFERENCE_CONFIGS: Record<string, unknown> = {
  "image-fit-cover": canvas([{ ...photo, x: 20, y: 20, width: 280, height: 100, fit: "cover" }]),
  "image-fit-contain": canvas([{ ...photo, x: 20, y: 20, width: 280, height: 100, fit: "contain" }]),
  "image-fit-fill": canvas([{ ...photo, x: 20, y: 20, width: 280, height: 100, fit: "fill" }]),
  "image-fit-inside": canvas([
    { type: "image", path: FILES.emoji.url, x: 10, y: 10, width: 600, height: 150, fit: "inside" },
  ]),
  "image-fit-outside": canvas([{ ...photo, x: 10, y: 10, width: 120, height: 30, fit: "outside" }]),
  "image-radius-opacity": canvas([
    { ...photo, x: 40, y: 20, width: 240, height: 160, fit: "cover", borderRadius: 40, opacity: 0.6 },
  ]),
  "rotation-blur": canvas([
    { type: "rectangle", x: 110, y: 50, width: 100, height: 100, fill: "#e63946", rotation: 30 },
    { type: "circle", x: 20, y: 60, width: 60, height: 60, fill: "#1d3557", blur: 4 },
    { type: "text", text: "Tilted", x: 240, y: 80, fontSize: 28, rotation: -20 },
  ]),
  shapes: canvas([
    {
      type: "rectangle",
      x: 10,
      y: 10,
      width: 140,
      height: 80,
      fill: "#2a9d8f",
      stroke: "#264653",
      strokeWidth: 6,
      borderRadius: 12,
    },
    { type: "rectangle", x: 170, y: 10, width: 140, height: 80, stroke: "#e76f51", strokeWidth: 3 },
    { type: "circle", x: 10, y: 110, width: 80, height: 80, fill: "#f4a261" },
    {
      type: "circle",
      x: 110,
      y: 120,
      width: 200,
      height: 60,
      fill: "#e9c46a",
      stroke: "#264653",
      strokeWidth: 4,
    },
  ]),
  gradients: canvas([
    {
      type: "gradient",
      x: 0,
      y: 0,
      width: 100,
      height: 100,
      gradient: { colors: ["#ff0000", "#0000ff"], direction: "horizontal" },
    },
    {
      type: "gradient",
      x: 110,
      y: 0,
      width: 100,
      height: 100,
      gradient: { type: "linear", colors: ["#ff0000", "#00ff00", "#0000ff"], direction: "vertical" },
    },
    { type: "gradient", x: 220, y: 0, width: 100, height: 100, gradient: { colors: ["#000000", "#ffffff"] } },
    {
      type: "gradient",
      x: 0,
      y: 110,
      width: 320,
      height: 90,
      gradient: { type: "radial", colors: ["#ffffff", "rgba(0,0,128,0.9)"] },
    },
  ]),
  "named-positions": canvas(
    [
      "top-left",
      "top",
      "top-right",
      "center-left",
      "center",
      "center-right",
      "bottom-left",
      "bottom",
      "bottom-right",
    ].map((position, i) => ({
      type: "rectangle",
      position,
      width: 40,
      height: 30,
      fill: `hsl(${i * 40},70%,45%)`,
    })),
  ),
  "relative-positions": canvas([
    {
      type: "rectangle",
      position: { x: 0.5, y: 0.5, originX: "center", originY: "center" },
      width: 60,
      height: 60,
      fill: "#023047",
    },
    { type: "rectangle", position: { x: 0.25, y: 0.25 }, width: 30, height: 30, fill: "#fb8500" },
    {
      type: "rectangle",
      position: { x: 0.75, y: 0.75, originX: "right", originY: "bottom" },
      width: 30,
      height: 30,
      fill: "#219ebc",
    },
    { type: "text", text: "Centre", position: "center", fontSize: 14, color: "#ffffff" },
  ]),
  "text-basics": canvas([
    { type: "text", text: "Default text 24px", x: 10, y: 10 },
    {
      type: "text",
      text: "Two lines\nwith a break",
      x: 10,
      y: 50,
      fontSize: 20,
      color: "#c1121f",
      lineHeight: 1.5,
    },
    { type: "text", text: "Centred", x: 240, y: 60, align: "center", fontSize: 18 },
    { type: "text", text: "Right", x: 310, y: 100, align: "right", fontSize: 18 },
    {
      type: "text",
      text: "On a box",
      x: 10,
      y: 150,
      fontSize: 20,
      color: "#ffffff",
      backgroundColor: "#003049",
    },
  ]),
  "text-wrap": canvas([
    { type: "rectangle", x: 20, y: 10, width: 200, height: 180, fill: "#ffffff" },
    {
      type: "text",
      text: "Wrapped text flows inside a box of two hundred pixels.\nA newline still breaks.",
      x: 20,
      y: 10,
      width: 200,
      wrap: true,
      fontSize: 18,
    },
  ]),
  "text-fonts": canvas([
    { type: "text", text: "Patua One upload", x: 10, y: 10, fontPath: FILES.font.url, fontSize: 26 },
    { type: "text", text: "Montserrat 700", x: 10, y: 60, googleFont: "Montserrat:700", fontSize: 26 },
    // The alias draws the same face.
    { type: "text", text: "Lobster", x: 10, y: 110, catalogFont: "Lobster", fontSize: 30 },
    { type: "text", text: "Roboto Mono", x: 10, y: 155, fontFamily: "Roboto Mono", fontSize: 24 },
  ]),
  defaults: canvas(
    [
      { type: "text", text: "From defaults", x: 10, y: 10 },
      { type: "text", text: "Own colour", x: 10, y: 60, color: "#0077b6" },
      { type: "rectangle", x: 10, y: 120, width: 120, height: 60 },
      { type: "rectangle", x: 150, y: 120, width: 120, height: 60, fill: "#90be6d", opacity: 1 },
    ],
    {
      defaults: {
        layer: { opacity: 0.5, color: "#9d0208" },
        layerType: {
          text: { fontSize: 30, googleFont: "Oswald:500", opacity: 1 },
          rectangle: { fill: "#6a4c93" },
        },
      },
    },
  ),
  "html-layer": canvas([
    { type: "rectangle", x: 0, y: 0, width: 320, height: 200, fill: "#264653" },
    {
      type: "html",
      x: 20,
      y: 20,
      width: 280,
      height: 160,
      html: `<div class="card"><h1>HTML</h1><p>${BLOCK} inline CSS</p></div>`,
      css: ".card{font:20px sans-serif;color:#fff;border:3px solid #e9c46a;border-radius:12px;padding:8px}h1{margin:0;color:#e9c46a}",
    },
  ]),
  "html-libraries": canvas(
    [
      {
        type: "html",
        enableLibraries: true,
        html: `<script src="https://cdn.jsdelivr.net/npm/gsap@3/dist/gsap.min.js"></script>
<div class="flex gap-2 p-2"><div class="w-16 h-16 bg-red-500 rounded-full"></div><div id="b" class="w-16 h-16 bg-blue-600"></div><i data-lucide="star"></i></div>
<svg id="d" width="300" height="60"></svg>
<script>gsap.set("#b",{rotation:45});lucide.createIcons();d3.select("#d").selectAll("rect").data([10,30,50]).enter().append("rect").attr("x",(d,i)=>i*40).attr("y",d=>60-d).attr("width",30).attr("height",d=>d).attr("fill","#2a9d8f");
document.body.dataset.libs=[typeof gsap,typeof lottie,typeof Chart,typeof Motion,typeof anime,typeof d3,typeof lucide].join()</script>`,
      },
    ],
    { backgroundColor: "#ffffff" },
  ),
};

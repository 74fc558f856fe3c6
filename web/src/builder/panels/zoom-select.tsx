/** The zoom of the image canvas and of the video timeline: "Fit" or one of `levels` (1 = 100 %). */
export type Zoom = "fit" | number;

export const ZoomSelect = ({
  zoom,
  setZoom,
  levels,
}: {
  zoom: Zoom;
  setZoom: (zoom: Zoom) => void;
  levels: readonly number[];
}) => (
  <label>
    Zoom{" "}
    <select
      value={String(zoom)}
      onChange={(e) => setZoom(e.currentTarget.value === "fit" ? "fit" : Number(e.currentTarget.value))}
    >
      <option value="fit">Fit</option>
      {levels.map((level) => (
        <option key={level} value={String(level)}>
          {level * 100} %
        </option>
      ))}
    </select>
  </label>
);

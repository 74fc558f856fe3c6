/**
 * Transitions by name, each with its thumbnail: the gl-transitions shaders' midpoints from the renderer's contact
 * sheet (one picture, build/transition-sprite.ts; its cells are the names of GL_TRANSITIONS_1_43 then
 * GL_TRANSITIONS_LATER, ten to a row, as renderer/test/video/gl-transitions.test.ts draws them). editly's own
 * names (the directional pushes, `dummy`, `random`) have no shader and get a sign instead.
 */
import { useState } from "preact/hooks";
import sprite from "virtual:transition-sprite";
import { EDITLY_TRANSITIONS, GL_TRANSITIONS_1_43, GL_TRANSITIONS_LATER } from "../service-code.ts";

const SHEET = [...GL_TRANSITIONS_1_43, ...GL_TRANSITIONS_LATER] as readonly string[];
const COLUMNS = 10;
const ROWS = Math.ceil(SHEET.length / COLUMNS);
const CELL = new Map(SHEET.map((name, i) => [name.toLowerCase(), i]));
const SIGNS: Record<string, string> = {
  "directional-left": "←",
  "directional-right": "→",
  "directional-up": "↑",
  "directional-down": "↓",
  random: "?",
  dummy: "|",
};

/** Every name the grammar accepts, editly's first. */
export const TRANSITION_CHOICES: readonly string[] = [...EDITLY_TRANSITIONS, ...SHEET];

/** The documented spelling of a name written in any case (the grammar matches names without regard to case). */
export const canonicalTransition = (name: string) =>
  TRANSITION_CHOICES.find((n) => n.toLowerCase() === name.toLowerCase()) ?? name;

/** A transition's thumbnail (decorative: its name is always written beside it). */
export const TransitionThumb = ({ name }: { name: string }) => {
  const cell = CELL.get(name.toLowerCase());
  if (cell === undefined)
    return (
      <span class="thumb-t sign" aria-hidden="true">
        {SIGNS[name.toLowerCase()] ?? "·"}
      </span>
    );
  const x = ((cell % COLUMNS) / (COLUMNS - 1)) * 100;
  const y = (Math.floor(cell / COLUMNS) / (ROWS - 1)) * 100;
  return (
    <span
      class="thumb-t"
      aria-hidden="true"
      style={{
        backgroundImage: `url(${sprite})`,
        backgroundSize: `${COLUMNS * 100}% ${ROWS * 100}%`,
        backgroundPosition: `${x}% ${y}%`,
      }}
    />
  );
};

/** A name chosen from a list, with the chosen one's thumbnail, and every thumbnail to browse. */
export const TransitionPicker = ({
  id,
  value,
  onChange,
  describedBy,
}: {
  id: string;
  value: string | undefined;
  onChange: (name: string) => void;
  describedBy?: string;
}) => {
  const [browsing, setBrowsing] = useState(false);
  const [filter, setFilter] = useState("");
  const current = value === undefined ? undefined : canonicalTransition(value);
  const shown = TRANSITION_CHOICES.filter((n) => n.toLowerCase().includes(filter.toLowerCase()));
  return (
    <div class="transition-picker">
      <div class="transition-current">
        {current && <TransitionThumb name={current} />}
        <select
          id={id}
          aria-describedby={describedBy}
          value={current ?? ""}
          onChange={(e) => onChange(e.currentTarget.value)}
        >
          <option value="" disabled>
            choose a transition
          </option>
          {TRANSITION_CHOICES.map((n) => (
            <option key={n}>{n}</option>
          ))}
        </select>
        <button
          type="button"
          class="secondary small"
          aria-expanded={browsing}
          aria-controls={`${id}-browse`}
          onClick={() => setBrowsing(!browsing)}
        >
          {browsing ? "Hide thumbnails" : "Browse thumbnails"}
        </button>
      </div>
      {browsing && (
        <div id={`${id}-browse`} class="transition-browse">
          <label>
            Filter <input type="search" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
          </label>
          <ul class="transition-grid">
            {shown.map((name) => (
              <li key={name}>
                <button
                  type="button"
                  class={name === current ? "chosen" : ""}
                  aria-pressed={name === current}
                  onClick={() => onChange(name)}
                >
                  <TransitionThumb name={name} />
                  <span>{name}</span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
};

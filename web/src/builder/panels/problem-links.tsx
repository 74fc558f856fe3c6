/** The errors inside the selected object (a layer's, a clip's layers'), each a link that focuses its field's control. */
import { pathOfField } from "../model/paths.ts";
import { controlId } from "./property-panel.tsx";

export const ProblemLinks = ({ problems }: { problems: { field?: string; message: string }[] }) =>
  problems.length ? (
    <ul class="problem-links field-error">
      {problems.map((problem, i) => {
        const path = pathOfField(problem.field!);
        return (
          <li key={i}>
            <a
              href={`#${path ? controlId(path) : "config"}`}
              onClick={(e) => {
                const target = path && document.getElementById(controlId(path));
                if (!target) return;
                e.preventDefault();
                target.focus();
              }}
            >
              {problem.field!.replace(/^config\./, "")}
            </a>
            : {problem.message}
          </li>
        );
      })}
    </ul>
  ) : null;

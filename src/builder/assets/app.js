// The builder page: edit a job config with completion from its JSON Schema and live validation (the validate
// endpoint), render it (a fast preview for video), follow its progress (the job's event stream), see and
// download the result. Everything goes through the public API with the key typed above; the key is kept in this
// tab's sessionStorage only. Messages are shown as text, never as HTML.
"use strict";

const $ = (id) => document.getElementById(id);
const keyInput = $("key");
const typeSelect = $("type");
const editor = $("config");
const schemas = {};
let validateTimer;
let validateSeq = 0;

keyInput.value = sessionStorage.getItem("mrs-key") || "";
keyInput.addEventListener("input", () => {
  sessionStorage.setItem("mrs-key", keyInput.value.trim());
  scheduleValidate();
});

// Without a key typed, the console's session cookie (if signed in) authorises the calls; requests that change
// something then carry the session's CSRF token (GET /api/v1/auth/session).
let csrfToken = null;
fetch("/api/v1/auth/session")
  .then((r) => (r.ok ? r.json() : null))
  .then((body) => {
    csrfToken = body?.data?.csrfToken ?? null;
    if (csrfToken && !keyInput.value) keyInput.placeholder = "signed in: no key needed";
  })
  .catch(() => undefined);

const api = (path, init = {}) => {
  const key = keyInput.value.trim();
  const auth = key ? { "x-api-key": key } : csrfToken ? { "x-csrf-token": csrfToken } : {};
  return fetch(path, { ...init, headers: { ...auth, ...(init.headers || {}) } });
};

const text = (tag, value, attrs = {}) => {
  const el = document.createElement(tag);
  el.textContent = value;
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
};

// ---------- a config handed over in the link (the console's "open in builder": #config=<base64url JSON>) ----------
const fromLink = () => {
  const match = /^#config=([\w-]+)$/.exec(location.hash);
  if (!match) return null;
  try {
    const binary = atob(match[1].replaceAll("-", "+").replaceAll("_", "/"));
    const job = JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))));
    return job && typeof job.config === "object" && ["image", "video"].includes(job.type) ? job : null;
  } catch {
    return null;
  }
};

// ---------- gallery ----------
const loadExample = (job) => {
  typeSelect.value = job.type;
  editor.value = JSON.stringify(job.config, null, 2);
  scheduleValidate(0);
  showHints();
};

fetch("/builder/examples.json")
  .then((r) => r.json())
  .then((examples) => {
    for (const example of examples) {
      const button = document.createElement("button");
      button.type = "button";
      button.append(text("b", example.name), text("small", example.description));
      button.addEventListener("click", () => loadExample(example.job));
      $("gallery").append(button);
    }
    if (!editor.value) loadExample(fromLink() ?? examples[0].job);
  });

for (const name of ["image", "video"])
  fetch(`/api/v1/schemas/${name}`)
    .then((r) => r.json())
    .then((body) => {
      schemas[name] = body.data.schema;
      showHints();
    });

// ---------- completion from the JSON Schema ----------
/** Where the cursor is: the path of containers from the root, and the text of the innermost object. */
const cursorContext = (source, at) => {
  const stack = [];
  let lastString = null;
  for (let i = 0; i < at; i++) {
    const ch = source[i];
    if (ch === '"') {
      let j = i + 1;
      while (j < source.length && source[j] !== '"') j += source[j] === "\\" ? 2 : 1;
      if (j >= at) return { stack, inString: true };
      lastString = JSON.parse(source.slice(i, j + 1));
      i = j;
      continue;
    }
    const top = stack[stack.length - 1];
    if (ch === "{") stack.push({ kind: "object", key: null, start: i });
    else if (ch === "[") stack.push({ kind: "array", index: 0, start: i });
    else if (ch === "}" || ch === "]") stack.pop();
    else if (ch === ":" && top && top.kind === "object") top.key = lastString;
    else if (ch === ",") {
      if (top && top.kind === "array") top.index++;
      else if (top) top.key = null;
    }
  }
  return { stack, inString: false };
};

const resolveRef = (root, node) => {
  while (node && node.$ref) node = root.$defs?.[node.$ref.replace("#/$defs/", "")];
  return node;
};

/** The object schemas the innermost object may be (layers are a union: narrowed by the object's "type"). */
const objectSchemasAt = (root, stack, source) => {
  let nodes = [root];
  for (let depth = 0; depth < stack.length - 1; depth++) {
    const frame = stack[depth];
    const next = [];
    for (let node of nodes) {
      node = resolveRef(root, node);
      for (const branch of node?.anyOf || node?.oneOf || [node]) {
        const b = resolveRef(root, branch);
        if (!b) continue;
        if (frame.kind === "object" && b.properties?.[frame.key]) next.push(b.properties[frame.key]);
        if (frame.kind === "array" && b.items) next.push(b.items);
      }
    }
    nodes = next;
  }
  const inner = stack[stack.length - 1];
  const own = source.slice(inner.start);
  const declaredType = /"type"\s*:\s*"([\w-]+)"/.exec(own)?.[1];
  const objects = [];
  for (const node of nodes)
    for (const branch of resolveRef(root, node)?.anyOf || resolveRef(root, node)?.oneOf || [node]) {
      const b = resolveRef(root, branch);
      if (!b?.properties) continue;
      const t = b.properties.type;
      if (declaredType && t && (t.const ?? t.enum?.[0]) !== undefined) {
        const allowed = t.const !== undefined ? [t.const] : t.enum;
        if (!allowed.includes(declaredType)) continue;
      }
      objects.push(b);
    }
  return objects;
};

const insertAtCursor = (snippet) => {
  const at = editor.selectionStart;
  editor.setRangeText(snippet, at, editor.selectionEnd, "end");
  editor.focus();
  scheduleValidate();
  showHints();
};

const showHints = () => {
  const hints = $("hints");
  hints.replaceChildren();
  const root = schemas[typeSelect.value];
  if (!root) return;
  const source = editor.value;
  const { stack, inString } = cursorContext(source, editor.selectionStart);
  if (inString || stack.length === 0) return;
  const inner = stack[stack.length - 1];
  if (inner.kind !== "object") return;
  const objects = objectSchemasAt(root, stack, source);
  if (inner.key) {
    // After `"key":` offer the property's allowed values.
    const values = new Set();
    for (const o of objects) {
      const p = resolveRef(root, o.properties[inner.key]);
      for (const v of p?.enum || (p?.const !== undefined ? [p.const] : [])) values.add(v);
    }
    for (const v of values) addHint(JSON.stringify(v), `${JSON.stringify(v)}`, "");
    return;
  }
  const present = new Set(
    [...source.slice(inner.start, editor.selectionStart).matchAll(/"([\w-]+)"\s*:/g)].map((m) => m[1]),
  );
  const names = new Map();
  for (const o of objects)
    for (const [name, p] of Object.entries(o.properties))
      if (!present.has(name) && !names.has(name)) names.set(name, resolveRef(root, p)?.description || "");
  for (const [name, description] of names) addHint(name, `"${name}": `, description);
};

const addHint = (label, snippet, title) => {
  const b = text("button", label, { type: "button", title });
  b.addEventListener("click", () => insertAtCursor(snippet));
  $("hints").append(b);
};

for (const event of ["click", "keyup"]) editor.addEventListener(event, showHints);
typeSelect.addEventListener("change", () => {
  showHints();
  scheduleValidate(0);
});

// ---------- live validation ----------
const scheduleValidate = (delay = 400) => {
  clearTimeout(validateTimer);
  validateTimer = setTimeout(validate, delay);
};
editor.addEventListener("input", () => scheduleValidate());

const showErrors = (items) => {
  const list = $("errors");
  list.replaceChildren();
  for (const { field, message } of items) {
    const li = document.createElement("li");
    if (field) li.append(text("code", field), document.createTextNode(": "));
    li.append(document.createTextNode(message));
    list.append(li);
  }
};

const validate = async () => {
  const seq = ++validateSeq;
  let config;
  try {
    config = JSON.parse(editor.value);
  } catch (e) {
    showErrors([{ field: "JSON", message: e.message }]);
    $("estimate").textContent = "";
    return;
  }
  if (!keyInput.value.trim()) {
    showErrors([{ field: "", message: "Enter an API key above to check the config against the service." }]);
    return;
  }
  const res = await api("/api/v1/jobs/validate", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ type: typeSelect.value, config }),
  });
  const body = await res.json();
  if (seq !== validateSeq) return; // a newer check is on its way
  if (!body.success) {
    showErrors([{ field: "", message: body.error }]);
    return;
  }
  showErrors(body.data.errors);
  $("estimate").textContent = body.data.isValid ? `Valid: about ${body.data.estimatedTokens} tokens` : "";
};

// ---------- render and follow ----------
const setProgress = (percent, label) => {
  $("bar").style.width = `${Math.max(0, Math.min(100, percent))}%`;
  $("status").textContent = label;
};

const follow = async (jobId) => {
  for (;;) {
    const res = await api(`/api/v1/jobs/${encodeURIComponent(jobId)}/events`);
    if (!res.ok) throw new Error((await res.json()).error);
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += value;
      let end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: ?(.*)$/m.exec(block)?.[1];
        const data = /^data: ?(.*)$/m.exec(block)?.[1];
        if (!event || data === undefined) continue;
        const job = JSON.parse(data);
        if (event === "done") return job;
        const percent = job.progress?.percent ?? 0;
        setProgress(
          percent,
          `${job.status} ${Math.round(percent)}%${job.progress?.stage ? ` · ${job.progress.stage}` : ""}`,
        );
      }
    }
  }
};

$("render").addEventListener("click", async () => {
  const button = $("render");
  button.disabled = true;
  $("output").replaceChildren();
  try {
    const config = JSON.parse(editor.value);
    if (typeSelect.value === "video" && $("fast").checked) config.fast = true;
    const res = await api("/api/v1/jobs", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ type: typeSelect.value, config }),
    });
    const body = await res.json();
    if (!body.success) {
      showErrors(body.details?.errors || [{ field: "", message: body.error }]);
      setProgress(0, `Refused: ${body.error}`);
      return;
    }
    setProgress(0, `PENDING · job ${body.data.jobId}`);
    const job = await follow(body.data.jobId);
    if (job.status !== "COMPLETED") {
      setProgress(0, `${job.status}: ${job.errorMessage || ""}`);
      return;
    }
    setProgress(100, `COMPLETED 100% · ${job.tokensUsed} tokens`);
    const file = await api(`/api/v1/files/${encodeURIComponent(job.outputFileId)}/download`);
    const url = URL.createObjectURL(await file.blob());
    const media = job.type === "VIDEO" ? document.createElement("video") : document.createElement("img");
    if (job.type === "VIDEO")
      Object.assign(media, { controls: true, autoplay: true, muted: true, loop: true });
    media.id = "rendered";
    media.src = url;
    const link = text("a", `Download ${job.outputFormat}`, {
      href: url,
      download: `${job.id}.${job.outputFormat}`,
    });
    $("output").append(media, document.createElement("br"), link);
  } catch (e) {
    setProgress(0, `Error: ${e.message}`);
  } finally {
    button.disabled = false;
  }
});

/**
 * A reader of the text/event-stream format (the HTML standard's "event stream interpretation"), for the job event
 * stream: `event:`, `data:` (several lines joined by \n), `id:`, `retry:`, comment lines, and LF, CR or CRLF line
 * ends, across chunks cut anywhere (a CRLF split between two chunks included). Pure: no I/O, no n8n.
 */

/** One dispatched event. */
export interface StreamEvent {
  event: string;
  data: string;
  id?: string;
}

/** Feeds chunks in, answers the events each chunk completed; `retry` is the last reconnection time sent. */
export const eventStreamReader = () => {
  let buffer = "";
  // A chunk that ended in CR may be followed by the LF of the same line end.
  let skipLeadingLf = false;
  let event = "";
  let data: string[] = [];
  let id: string | undefined;
  const state = { retry: undefined as number | undefined };

  const line = (text: string, out: StreamEvent[]) => {
    if (text === "") {
      if (data.length > 0) out.push({ event: event || "message", data: data.join("\n"), id });
      event = "";
      data = [];
      return;
    }
    if (text.startsWith(":")) return;
    const colon = text.indexOf(":");
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
    else if (field === "id" && !value.includes("\0")) id = value;
    else if (field === "retry" && /^\d+$/.test(value)) state.retry = Number(value);
  };

  return {
    get retry() {
      return state.retry;
    },
    /** The events completed by this chunk, in order. */
    push(chunk: string): StreamEvent[] {
      const out: StreamEvent[] = [];
      let text = chunk;
      if (skipLeadingLf && text.startsWith("\n")) text = text.slice(1);
      skipLeadingLf = false;
      buffer += text;
      for (;;) {
        const end = buffer.search(/[\r\n]/);
        if (end === -1) break;
        const crlf = buffer[end] === "\r" && buffer[end + 1] === "\n";
        if (buffer[end] === "\r" && end === buffer.length - 1) skipLeadingLf = true;
        line(buffer.slice(0, end), out);
        buffer = buffer.slice(end + (crlf ? 2 : 1));
      }
      return out;
    },
  };
};

/**
 * Reading Server-Sent Events as MCP's Streamable HTTP sends them (WHATWG's event stream format):
 * whole bodies, and streams read event by event as they arrive.
 */

/** The data of each event in an SSE text: its `data:` lines joined by newlines (events without data are left out). */
export function sseData(text: string): string[] {
  const events: string[] = [];
  for (const block of text.replace(/\r\n?/g, "\n").split("\n\n")) {
    const data = block
      .split("\n")
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(line.startsWith("data: ") ? 6 : 5));
    if (data.length > 0) events.push(data.join("\n"));
  }
  return events;
}

/** The JSON messages of an HTTP body: an SSE stream's events, or the JSON body itself (an array is a batch). */
export function bodyMessages<T = unknown>(body: string): T[] {
  const trimmed = body.trim();
  if (trimmed === "") return [];
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    const value = JSON.parse(trimmed) as T | T[];
    return Array.isArray(value) ? value : [value];
  }
  return sseData(body).map((data) => JSON.parse(data) as T);
}

/** The JSON-RPC answer in an HTTP body (JSON, or the last SSE message that holds a result or an error). */
export function rpcAnswer<T = { id?: unknown; result?: any; error?: { code: number; message: string; data?: unknown } }>(body: string): T {
  const found = bodyMessages<Record<string, unknown>>(body)
    .filter((m) => "result" in m || "error" in m)
    .pop();
  if (!found) throw new Error(`no JSON-RPC answer in: ${body}`);
  return found as T;
}

/**
 * Reads an SSE response body as it arrives (events ended by a blank line, LF as the servers here send), calling `onData` with each event's data; resolves
 * when the stream ends or is aborted (an abort is the caller's way to stop reading).
 */
export async function readSse(body: ReadableStream<Uint8Array>, onData: (data: string) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffered += decoder.decode(value, { stream: true });
      for (let end = buffered.indexOf("\n\n"); end !== -1; end = buffered.indexOf("\n\n")) {
        for (const data of sseData(buffered.slice(0, end))) onData(data);
        buffered = buffered.slice(end + 2);
      }
    }
  } catch (error) {
    if (!(error instanceof Error && error.name === "AbortError")) throw error;
  }
}

/**
 * The side copy of an HTTP body, as the recorder reads it: decoded when the body is compressed
 * (gzip, deflate, br), copied as a message (copy.ts: held when small, spooled when large, bounded
 * by `maxBytes`), and never in the way of the forwarded bytes, which do not pass through here.
 */
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import type { Transform } from "node:stream";
import { MessageCopy, type Copied, type CopyOptions } from "./copy.js";

export interface SideStream {
  write(chunk: Buffer): void;
  end(): void;
}

/**
 * A sink for the decoded bytes of a body with `Content-Encoding: encoding` (undefined: none).
 * `onUndecodable` is called once if the body does not decode; nothing more reaches `sink` then.
 */
export function decodedSide(encoding: string | undefined, sink: SideStream, onUndecodable: (reason: string) => void): SideStream {
  const name = (encoding ?? "").trim().toLowerCase();
  let decoder: Transform | undefined;
  if (name === "gzip" || name === "x-gzip") decoder = createGunzip();
  else if (name === "deflate") decoder = createInflate();
  else if (name === "br") decoder = createBrotliDecompress();
  else if (name !== "" && name !== "identity") {
    onUndecodable(`a body in the ${name} encoding, which the recorder does not decode`);
    return { write() {}, end() {} };
  }
  if (!decoder) return sink;
  const d = decoder;
  let failed = false;
  d.on("data", (chunk: Buffer) => sink.write(chunk));
  d.on("end", () => sink.end());
  d.on("error", (error) => {
    if (failed) return;
    failed = true;
    onUndecodable(`a body that does not decode as ${name}: ${error.message}`);
  });
  return {
    write: (chunk) => {
      if (!failed) d.write(chunk);
    },
    end: () => {
      if (!failed) d.end();
    },
  };
}

/** The copy of a whole body as one message (copy.ts); `done` gets what it came to when the body ends. */
export function bodyCopy(options: CopyOptions, done: (copied: Copied, size: number) => void): SideStream {
  const copy = new MessageCopy(options);
  let size = 0;
  return {
    write(chunk) {
      size += chunk.length;
      copy.write(chunk);
    },
    end() {
      done(copy.end(), size);
    },
  };
}

/**
 * NumPy `.npy` files (format version 1.0), so the safety dataset loads in Python with a plain
 * `numpy.load(path)`: a magic string, a little-endian header length, a Python-literal header
 * dict padded to 64 bytes, then the raw C-order data.
 */
import { MiB, readBytesFile } from "../../util/read.js";

/** One shard's array: far above a shard this project writes, within what a Buffer holds. */
const MAX_NPY_BYTES = 1024 * MiB;
import { UsageError } from "../../errors.js";
import { writeAtomic } from "../../util/files.js";

export type NpyArray = Uint8Array | Int8Array | Int16Array | Int32Array | Float32Array;
export type NpyDtype = "|u1" | "|i1" | "<i2" | "<i4" | "<f4";

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59];

function dtypeOf(a: NpyArray): NpyDtype {
  if (a instanceof Uint8Array) return "|u1";
  if (a instanceof Int8Array) return "|i1";
  if (a instanceof Int16Array) return "<i2";
  if (a instanceof Int32Array) return "<i4";
  return "<f4";
}

/** The bytes of an .npy file holding `data` with `shape` (C order; the product of shape must be data.length). */
export function encodeNpy(data: NpyArray, shape: readonly number[]): Uint8Array {
  const count = shape.reduce((a, b) => a * b, 1);
  if (count !== data.length)
    throw new Error(`npy: shape ${shape.join("x")} does not hold ${data.length} values`);
  const dims = shape.length === 1 ? `${shape[0]},` : shape.join(", ");
  let header = `{'descr': '${dtypeOf(data)}', 'fortran_order': False, 'shape': (${dims}), }`;
  const pad = 64 - ((10 + header.length + 1) % 64);
  header += `${" ".repeat(pad % 64)}\n`;
  const body = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const out = new Uint8Array(10 + header.length + body.length);
  out.set(MAGIC, 0);
  out[6] = 1;
  out[7] = 0;
  out[8] = header.length & 0xff;
  out[9] = header.length >> 8;
  for (let i = 0; i < header.length; i++) out[10 + i] = header.charCodeAt(i);
  out.set(body, 10 + header.length);
  return out;
}

export function writeNpy(path: string, data: NpyArray, shape: readonly number[]): void {
  writeAtomic(path, encodeNpy(data, shape));
}

export interface Npy {
  readonly dtype: NpyDtype;
  readonly shape: number[];
  readonly data: NpyArray;
}

/** Reads an .npy file this module wrote (version 1.0, C order, one of the dtypes above). */
export function decodeNpy(bytes: Uint8Array, label = "npy file"): Npy {
  const bad = (why: string): never => {
    throw new UsageError(`${label} is not a readable .npy file: ${why}`);
  };
  if (bytes.length < 10 || MAGIC.some((m, i) => bytes[i] !== m)) bad("no NUMPY magic");
  if (bytes[6] !== 1) bad(`format version ${bytes[6]} (expected 1)`);
  const hlen = bytes[8]! | (bytes[9]! << 8);
  const header = String.fromCharCode(...bytes.subarray(10, 10 + hlen));
  const descr = /'descr':\s*'([^']+)'/.exec(header)?.[1];
  const shapeText = /'shape':\s*\(([^)]*)\)/.exec(header)?.[1];
  if (!descr || shapeText === undefined) bad("header has no descr or shape");
  if (/'fortran_order':\s*True/.test(header)) bad("Fortran order");
  const shape = shapeText!
    .split(",")
    .map((t) => t.trim())
    .filter((t) => t !== "")
    .map(Number);
  if (shape.some((n) => !Number.isSafeInteger(n) || n < 0)) bad(`shape (${shapeText})`);
  const count = shape.reduce((a, b) => a * b, 1);
  const start = 10 + hlen;
  const size = { "|u1": 1, "|i1": 1, "<i2": 2, "<i4": 4, "<f4": 4 }[descr as NpyDtype];
  if (size === undefined) bad(`dtype ${descr}`);
  if (bytes.length !== start + count * size!)
    bad(`${bytes.length - start} data bytes for ${count} values of ${size} bytes`);
  // Copy (a Node Buffer may share a larger pool) so the typed array is aligned and owns its bytes.
  const buf = new Uint8Array(bytes.subarray(start, start + count * size!)).buffer;
  const data: NpyArray =
    descr === "|u1"
      ? new Uint8Array(buf)
      : descr === "|i1"
        ? new Int8Array(buf)
        : descr === "<i2"
          ? new Int16Array(buf)
          : descr === "<i4"
            ? new Int32Array(buf)
            : new Float32Array(buf);
  return { dtype: descr as NpyDtype, shape, data };
}

export function readNpy(path: string): Npy {
  return decodeNpy(readBytesFile(path, { maxBytes: MAX_NPY_BYTES, what: "dataset array" }), path);
}

// Reads and writes NumPy .npy files (format versions 1.0, 2.0 and 3.0; C order; little-endian).
// Element types: float32 (<f4), float64 (<f8), int64 (<i8), int32 (<i4), uint8 (|u1), bool (|b1).
// An array is { dtype: 'float32' | ..., shape: number[], data: TypedArray } where dtype uses
// ONNX Runtime's tensor type names, so it can be handed to `new ort.Tensor(dtype, data, shape)`.
'use strict';

const fs = require('fs');

const MAGIC = Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]);  // "\x93NUMPY"

// descr text <-> ORT type name and typed-array constructor
const TYPES = [
  { descr: '<f4', dtype: 'float32', Array: Float32Array },
  { descr: '<f8', dtype: 'float64', Array: Float64Array },
  { descr: '<i8', dtype: 'int64', Array: BigInt64Array },
  { descr: '<i4', dtype: 'int32', Array: Int32Array },
  { descr: '|u1', dtype: 'uint8', Array: Uint8Array },
  { descr: '|b1', dtype: 'bool', Array: Uint8Array },
];

function typeByDescr(descr) {
  const t = TYPES.find((x) => x.descr === descr || (descr[0] === '=' && x.descr.slice(1) === descr.slice(1)));
  if (!t) throw new Error(`npy: unsupported dtype '${descr}' (supported: ${TYPES.map((x) => x.descr).join(' ')})`);
  return t;
}

function typeByName(dtype) {
  const t = TYPES.find((x) => x.dtype === dtype);
  if (!t) throw new Error(`npy: unsupported dtype '${dtype}'`);
  return t;
}

// Parses the header dict, e.g. {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
function parseHeader(text, file) {
  const descr = /'descr'\s*:\s*'([^']+)'/.exec(text);
  const fortran = /'fortran_order'\s*:\s*(True|False)/.exec(text);
  const shape = /'shape'\s*:\s*\(([^)]*)\)/.exec(text);
  if (!descr || !fortran || !shape) throw new Error(`npy: ${file}: malformed header ${text.trim()}`);
  if (fortran[1] === 'True') throw new Error(`npy: ${file}: Fortran-order arrays are not supported`);
  const dims = shape[1].split(',').map((s) => s.trim()).filter((s) => s.length > 0).map(Number);
  if (dims.some((d) => !Number.isInteger(d) || d < 0)) throw new Error(`npy: ${file}: bad shape (${shape[1]})`);
  return { descr: descr[1], shape: dims };
}

function numElements(shape) {
  return shape.reduce((a, b) => a * b, 1);
}

function readNpy(file) {
  const buf = fs.readFileSync(file);
  if (buf.length < 10 || !buf.subarray(0, 6).equals(MAGIC)) throw new Error(`npy: ${file}: not a .npy file`);
  const major = buf[6];
  let headerLen;
  let offset;
  if (major === 1) {
    headerLen = buf.readUInt16LE(8);
    offset = 10;
  } else if (major === 2 || major === 3) {
    headerLen = buf.readUInt32LE(8);
    offset = 12;
  } else {
    throw new Error(`npy: ${file}: unsupported format version ${major}`);
  }
  const header = parseHeader(buf.subarray(offset, offset + headerLen).toString('latin1'), file);
  const type = typeByDescr(header.descr);
  const start = offset + headerLen;
  const count = numElements(header.shape);
  const bytes = count * type.Array.BYTES_PER_ELEMENT;
  if (buf.length - start < bytes) {
    throw new Error(`npy: ${file}: truncated data (${buf.length - start} bytes, shape needs ${bytes})`);
  }
  // Copy into a fresh, aligned buffer (the file buffer's offset need not be aligned).
  const data = new type.Array(count);
  Buffer.from(data.buffer).set(buf.subarray(start, start + bytes));
  return { dtype: type.dtype, shape: header.shape, data };
}

function writeNpy(file, array) {
  const type = typeByName(array.dtype);
  const dims = array.shape.map((d) => String(d));
  const shapeText = dims.length === 1 ? `(${dims[0]},)` : `(${dims.join(', ')})`;
  let header = `{'descr': '${type.descr}', 'fortran_order': False, 'shape': ${shapeText}, }`;
  // Pad with spaces so that magic + version + length + header + '\n' is a multiple of 64 bytes.
  const unpadded = 10 + header.length + 1;
  header += ' '.repeat((64 - (unpadded % 64)) % 64) + '\n';
  const pre = Buffer.alloc(10);
  MAGIC.copy(pre, 0);
  pre[6] = 1;
  pre[7] = 0;
  pre.writeUInt16LE(header.length, 8);
  const data = array.data;
  if (data.length !== numElements(array.shape)) {
    throw new Error(`npy: ${file}: ${data.length} elements do not fill shape [${array.shape}]`);
  }
  const body = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  fs.writeFileSync(file, Buffer.concat([pre, Buffer.from(header, 'latin1'), body]));
}

module.exports = { readNpy, writeNpy, numElements };

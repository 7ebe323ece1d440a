// Tests of the real-model harness tools that need neither ONNX Runtime nor the models:
// the .npy reader/writer (against Python's writer in make_inputs.py) and compare.js's verdicts.
// Run: node --test tools/ort/test/   (CTest: ort_tools_test)
'use strict';

const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const test = require('node:test');
const { readNpy, writeNpy } = require('../npy.js');

const TOOLS = path.join(__dirname, '..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rlx-ort-tools-'));
test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));

function file(name) {
  return path.join(tmp, name);
}

function compare(kind, actual, expected, extra = []) {
  const a = file(`a_${Math.random().toString(36).slice(2)}.npy`);
  const e = file(`e_${Math.random().toString(36).slice(2)}.npy`);
  writeNpy(a, actual);
  writeNpy(e, expected);
  const r = spawnSync(process.execPath, [path.join(TOOLS, 'compare.js'), '--kind', kind, ...extra, a, e],
    { encoding: 'utf8' });
  return { status: r.status, out: r.stdout + r.stderr };
}

function f32(shape, values) {
  return { dtype: 'float32', shape, data: Float32Array.from(values) };
}

// A rec-like output: 2 time steps over 4 classes, each row a distribution.
function recOutput() {
  return f32([1, 2, 4], [0.7, 0.1, 0.1, 0.1, 0.05, 0.05, 0.8, 0.1]);
}

test('npy round trip keeps dtype, shape and values', () => {
  const cases = [
    { dtype: 'float32', shape: [2, 3], data: Float32Array.from([1.5, -2, 0, 3.25, 1e-7, -0]) },
    { dtype: 'float64', shape: [3], data: Float64Array.from([Math.PI, -1, 2 ** 60]) },
    { dtype: 'int64', shape: [2, 1], data: BigInt64Array.from([-(2n ** 40n), 7n]) },
    { dtype: 'int32', shape: [1, 1, 2], data: Int32Array.from([-5, 2 ** 30]) },
    { dtype: 'uint8', shape: [4], data: Uint8Array.from([0, 1, 254, 255]) },
    { dtype: 'float32', shape: [], data: Float32Array.from([42]) },
  ];
  for (const c of cases) {
    const p = file(`rt_${c.dtype}_${c.shape.length}.npy`);
    writeNpy(p, c);
    const back = readNpy(p);
    assert.equal(back.dtype, c.dtype);
    assert.deepEqual(back.shape, c.shape);
    assert.deepEqual(Array.from(back.data), Array.from(c.data));
    // Header padded so the data starts on a 64-byte boundary, as NumPy writes it.
    const headerLen = fs.readFileSync(p).readUInt16LE(8);
    assert.equal((10 + headerLen) % 64, 0);
  }
});

test('npy reader rejects files it cannot read', () => {
  const bad = file('bad.npy');
  fs.writeFileSync(bad, 'not an npy file at all');
  assert.throws(() => readNpy(bad), /not a \.npy file/);
  const p = file('trunc.npy');
  writeNpy(p, f32([4], [1, 2, 3, 4]));
  fs.writeFileSync(p, fs.readFileSync(p).subarray(0, -4));
  assert.throws(() => readNpy(p), /truncated/);
  assert.throws(() => writeNpy(file('x.npy'), f32([3], [1, 2])), /do not fill shape/);
});

test('npy files written by make_inputs.py (Python) read back in JS', () => {
  const p = file('py.npy');
  const script = 'import array, sys; sys.path.insert(0, sys.argv[1]); import make_inputs; ' +
    'make_inputs.write_npy(sys.argv[2], array.array("f", [0.5, -1.25, 3.0, 7.5, 0.0, 2.0]), (1, 2, 3))';
  const r = spawnSync('python3', ['-c', script, TOOLS, p], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const a = readNpy(p);
  assert.equal(a.dtype, 'float32');
  assert.deepEqual(a.shape, [1, 2, 3]);
  assert.deepEqual(Array.from(a.data), [0.5, -1.25, 3.0, 7.5, 0.0, 2.0]);
});

test('compare passes identical and within-tolerance outputs', () => {
  const e = recOutput();
  const a = recOutput();
  a.data[0] += 5e-4;  // rec atol is 1e-3
  const r = compare('rec', a, e);
  assert.equal(r.status, 0, r.out);
  assert.match(r.out, /^PASS rec: max_abs_diff=5\.\d+e-4/);
  assert.match(r.out, /argmax agrees at 2 positions/);
});

test('compare fails a difference over the tolerance and says where', () => {
  const e = f32([1, 1, 2, 2], [0.1, 0.9, 0.5, 0.0]);
  const a = f32([1, 1, 2, 2], [0.1, 0.9, 0.5, 0.01]);
  const r = compare('det', a, e);
  assert.equal(r.status, 1);
  assert.match(r.out, /^FAIL det: max_abs_diff=1\.000e-2 at \[0, 0, 1, 1\]/);
  assert.match(r.out, /1 of 4 values over atol/);
  assert.equal(compare('det', a, e, ['--atol', '0.02']).status, 0);
});

test('compare fails a changed argmax before the value check', () => {
  const e = recOutput();
  const a = recOutput();
  [a.data[4], a.data[6]] = [a.data[6], a.data[4]];  // time step 1 now picks class 0
  const r = compare('rec', a, e);
  assert.equal(r.status, 1);
  assert.match(r.out, /argmax differs at 1 of 2 positions: \[0, 1, :\]: rlx class 0 .*ORT class 2/);
});

test('compare skips near ties in the argmax check', () => {
  // Expected margin 1e-4 <= 2 * atol (cls atol 2e-4): either order is within tolerance.
  const tie = f32([1, 2], [0.50005, 0.49995]);
  const flippedTie = f32([1, 2], [0.49995, 0.50005]);
  const r1 = compare('cls', flippedTie, tie);
  assert.equal(r1.status, 0, r1.out);
  assert.match(r1.out, /argmax agrees at 0 positions \(1 near ties skipped\)/);
  // Expected margin 8e-4: a near tie at atol 1e-3 (and within it), a real disagreement at 2e-4.
  const e = f32([1, 2], [0.5004, 0.4996]);
  const flipped = f32([1, 2], [0.49995, 0.50005]);
  const r2 = compare('cls', flipped, e, ['--atol', '0.001']);
  assert.equal(r2.status, 0, r2.out);
  const r3 = compare('cls', flipped, e);
  assert.equal(r3.status, 1);
  assert.match(r3.out, /argmax differs at 1 of 1 positions/);
});

test('compare fails shape, dtype and non-finite mismatches', () => {
  let r = compare('det', f32([1, 1, 2, 1], [0, 0]), f32([1, 1, 1, 2], [0, 0]));
  assert.equal(r.status, 1);
  assert.match(r.out, /rlx output is float32\[1,1,2,1\] but ONNX Runtime's is float32\[1,1,1,2\]/);
  r = compare('det', { dtype: 'float64', shape: [2], data: Float64Array.from([0, 0]) }, f32([2], [0, 0]));
  assert.equal(r.status, 1);
  r = compare('det', f32([2], [0, NaN]), f32([2], [0, 0]));
  assert.equal(r.status, 1);
  assert.match(r.out, /rlx output is NaN at \[1\]/);
});

test('compare --expect-max fails when the reference never reaches it', () => {
  const e = f32([1, 1, 1, 3], [0.0001, 0.0002, 0.0003]);
  const r = compare('det', e, e, ['--expect-max', '0.99']);
  assert.equal(r.status, 1);
  assert.match(r.out, /only reaches 0\.0003.*does not exercise the model/);
  assert.equal(compare('det', e, e, ['--expect-max', '0.0003']).status, 0);
});

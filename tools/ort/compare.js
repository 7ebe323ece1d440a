#!/usr/bin/env node
// Compares an output of rlx with ONNX Runtime's for one OCR model, and exits 1 on a mismatch.
//
//   node compare.js --kind det|rec|cls [--atol X] [--expect-max V] [--label TEXT] actual.npy expected.npy
//
// Checks, in order (the first failure is reported with where it happened):
//   1. same element type and shape;
//   2. every actual value finite;
//   3. rec and cls (probabilities over the last axis): the argmax agrees at every position (time
//      step / image) whose expected top-1 / top-2 margin exceeds 2 * atol. Within that margin the
//      two best classes are closer than two tolerances apart, so either order is within tolerance
//      and the position is counted as a near tie rather than checked. Checked before 4 because a
//      changed character or orientation is the failure a user would see (4 implies it elsewhere);
//   4. max |actual - expected| <= atol (default per kind, see DEFAULT_ATOL);
//   5. --expect-max V: the expected output reaches at least V (det on text-like images: the
//      probability map must reach ~1.0, otherwise the input did not exercise the model).
'use strict';

const { readNpy } = require('./npy.js');

// Default tolerances on probabilities in [0, 1] (all three outputs are sigmoid / softmax). See
// tests/models/run_ocr_models.sh for why these values: they are ~50x to 200x the differences that
// ONNX Runtime itself shows between graph optimization levels "all" and "disabled" (its fusions
// reorder float32 arithmetic the way a different compiler does), and far below any change that
// would alter a detection box, a recognized character or an orientation.
const DEFAULT_ATOL = { det: 1e-3, rec: 1e-3, cls: 2e-4 };

function usage(message) {
  if (message) console.error(`compare: ${message}`);
  console.error('usage: node compare.js --kind det|rec|cls [--atol X] [--expect-max V] [--label TEXT] ' +
    'actual.npy expected.npy');
  process.exit(2);
}

function parseArgs(argv) {
  const args = { kind: null, atol: null, expectMax: null, label: '', files: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) usage(`${a} needs a value`);
      return argv[++i];
    };
    const number = (text) => {
      const n = Number(text);
      if (!Number.isFinite(n) || n < 0) usage(`${a} needs a non-negative number, got '${text}'`);
      return n;
    };
    if (a === '--kind') args.kind = value();
    else if (a === '--atol') args.atol = number(value());
    else if (a === '--expect-max') args.expectMax = number(value());
    else if (a === '--label') args.label = value();
    else if (a.startsWith('--')) usage(`unknown option ${a}`);
    else args.files.push(a);
  }
  if (!(args.kind in DEFAULT_ATOL)) usage('--kind must be det, rec or cls');
  if (args.files.length !== 2) usage('needs actual.npy and expected.npy');
  if (args.atol === null) args.atol = DEFAULT_ATOL[args.kind];
  return args;
}

// Multi-index text of flat position i in shape.
function indexText(i, shape) {
  const idx = [];
  for (let d = shape.length - 1; d >= 0; d--) {
    idx.unshift(i % shape[d]);
    i = Math.floor(i / shape[d]);
  }
  return `[${idx.join(', ')}]`;
}

function maxAbsDiff(actual, expected) {
  let worst = 0;
  let at = 0;
  let over = 0;
  let sum = 0;
  return (atol) => {
    for (let i = 0; i < expected.length; i++) {
      const d = Math.abs(actual[i] - expected[i]);
      sum += d;
      if (d > atol) over++;
      if (d > worst) {
        worst = d;
        at = i;
      }
    }
    return { worst, at, over, mean: sum / expected.length };
  };
}

// Argmax agreement over the last axis, skipping near ties of the expected output.
function argmaxAgreement(actual, expected, shape, atol) {
  const classes = shape[shape.length - 1];
  const rows = expected.length / classes;
  let checked = 0;
  let ties = 0;
  const disagreements = [];
  for (let r = 0; r < rows; r++) {
    const base = r * classes;
    let best = 0;
    let second = -1;
    let actualBest = 0;
    for (let c = 1; c < classes; c++) {
      if (expected[base + c] > expected[base + best]) {
        second = best;
        best = c;
      } else if (second < 0 || expected[base + c] > expected[base + second]) {
        second = c;
      }
      if (actual[base + c] > actual[base + actualBest]) actualBest = c;
    }
    const margin = expected[base + best] - expected[base + second];
    if (margin <= 2 * atol) {
      ties++;
      continue;
    }
    checked++;
    if (actualBest !== best) {
      disagreements.push(`${indexText(base, shape).replace(/, 0\]$/, ', :]')}: rlx class ${actualBest} ` +
        `(p=${actual[base + actualBest].toPrecision(4)}), ORT class ${best} (p=${expected[base + best].toPrecision(4)})`);
    }
  }
  return { checked, ties, disagreements };
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const [actualFile, expectedFile] = args.files;
  const actual = readNpy(actualFile);
  const expected = readNpy(expectedFile);
  const label = `${args.kind}${args.label ? ' ' + args.label : ''}`;
  const fail = (msg) => {
    console.log(`FAIL ${label}: ${msg}`);
    process.exit(1);
  };

  if (actual.dtype !== expected.dtype || actual.shape.join(',') !== expected.shape.join(',')) {
    fail(`rlx output is ${actual.dtype}[${actual.shape}] but ONNX Runtime's is ${expected.dtype}[${expected.shape}]`);
  }
  if (actual.dtype !== 'float32' && actual.dtype !== 'float64') fail(`expected a float output, got ${actual.dtype}`);
  for (let i = 0; i < actual.data.length; i++) {
    if (!Number.isFinite(actual.data[i])) fail(`rlx output is ${actual.data[i]} at ${indexText(i, actual.shape)}`);
  }
  let expectedMax = -Infinity;
  for (let i = 0; i < expected.data.length; i++) expectedMax = Math.max(expectedMax, expected.data[i]);

  let extra = `ORT max=${expectedMax.toPrecision(6)}`;
  if (args.kind === 'rec' || args.kind === 'cls') {
    const a = argmaxAgreement(actual.data, expected.data, actual.shape, args.atol);
    if (a.disagreements.length > 0) {
      fail(`argmax differs at ${a.disagreements.length} of ${a.checked} positions: ` +
        a.disagreements.slice(0, 5).join('; '));
    }
    extra += `, argmax agrees at ${a.checked} positions (${a.ties} near ties skipped)`;
  }

  const d = maxAbsDiff(actual.data, expected.data)(args.atol);
  const diffText = `max_abs_diff=${d.worst.toExponential(3)} at ${indexText(d.at, actual.shape)} ` +
    `(rlx ${actual.data[d.at].toPrecision(6)}, ORT ${expected.data[d.at].toPrecision(6)}), ` +
    `mean_abs_diff=${d.mean.toExponential(3)}, atol=${args.atol}`;
  if (d.worst > args.atol) fail(`${diffText}; ${d.over} of ${actual.data.length} values over atol`);

  if (args.expectMax !== null && expectedMax < args.expectMax) {
    fail(`ONNX Runtime's output only reaches ${expectedMax}, below --expect-max ${args.expectMax}: ` +
      'the input does not exercise the model');
  }
  console.log(`PASS ${label}: ${diffText}; ${extra}`);
}

try {
  main();
} catch (e) {
  console.log(`FAIL: ${e.message}`);
  process.exit(1);
}

#!/usr/bin/env node
// Runs an ONNX model with ONNX Runtime (CPU, the reference rlx is checked against) on inputs read
// from .npy files, writes each output as <output-dir>/<output name>.npy, and optionally times it.
//
//   node ort_run.js model.onnx --input NAME=x.npy [--input ...] --output-dir DIR
//                   [--threads 2] [--bench N] [--warmup W] [--opt-level all]
//   node ort_run.js model.onnx --inspect
//
// Session: intra-op threads --threads (default 2), inter-op 1, sequential execution, graph
// optimization level --opt-level (default "all"; disabled|basic|extended|all). Each output's
// min/max/mean is printed. --bench N does W warm-up runs (default 2), then N timed runs, and prints
// "bench: median_ms=.. min_ms=.. mean_ms=.. runs=N threads=T". --inspect prints input/output
// names, element types and dims (dim_param names for symbolic dims); the op-type inventory comes
// from tools/ort/inspect_onnx.py (ONNX Runtime does not expose the graph), which --inspect also runs
// when Debian's python3-onnx is installed.
//
// onnxruntime-node is loaded from the model cache that scripts/fetch_models.sh fills
// (${RLX_MODEL_CACHE:-$HOME/.cache/rlx-models}), or from $RLX_ORT_NODE (the package folder).
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { readNpy, writeNpy } = require('./npy.js');

function usage(message) {
  if (message) console.error(`ort_run: ${message}`);
  console.error('usage: node ort_run.js model.onnx --input NAME=x.npy ... --output-dir DIR ' +
    '[--threads 2] [--bench N] [--warmup W] [--opt-level all] | model.onnx --inspect');
  process.exit(2);
}

function loadOrt() {
  const cache = process.env.RLX_MODEL_CACHE || path.join(os.homedir(), '.cache', 'rlx-models');
  const pkg = process.env.RLX_ORT_NODE || path.join(cache, 'node_modules', 'onnxruntime-node');
  if (!fs.existsSync(path.join(pkg, 'package.json'))) {
    console.error(`ort_run: onnxruntime-node not found at ${pkg}; run scripts/fetch_models.sh first`);
    process.exit(1);
  }
  return require(pkg);
}

function parseArgs(argv) {
  const args = { model: null, inputs: [], outputDir: null, threads: 2, bench: 0, warmup: 2, inspect: false,
    optLevel: 'all' };
  const positiveInt = (flag, text, min) => {
    const n = Number(text);
    if (!Number.isInteger(n) || n < min) usage(`${flag} needs an integer >= ${min}, got '${text}'`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) usage(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--input') {
      const v = value();
      const eq = v.indexOf('=');
      if (eq <= 0) usage(`--input needs NAME=file.npy, got '${v}'`);
      args.inputs.push({ name: v.slice(0, eq), file: v.slice(eq + 1) });
    } else if (a === '--output-dir') args.outputDir = value();
    else if (a === '--threads') args.threads = positiveInt(a, value(), 1);
    else if (a === '--bench') args.bench = positiveInt(a, value(), 1);
    else if (a === '--warmup') args.warmup = positiveInt(a, value(), 0);
    else if (a === '--inspect') args.inspect = true;
    else if (a === '--opt-level') {
      args.optLevel = value();
      if (!['disabled', 'basic', 'extended', 'all'].includes(args.optLevel)) {
        usage(`--opt-level is one of disabled, basic, extended, all; got '${args.optLevel}'`);
      }
    }
    else if (a === '-h' || a === '--help') usage();
    else if (a.startsWith('--')) usage(`unknown option ${a}`);
    else if (args.model === null) args.model = a;
    else usage(`unexpected argument '${a}'`);
  }
  if (!args.model) usage('no model given');
  if (!args.inspect && args.inputs.length === 0) usage('no --input given');
  return args;
}

function dimsText(meta) {
  if (!meta.isTensor) return '(not a tensor)';
  return `${meta.type}[${meta.shape.map(String).join(', ')}]`;
}

function inspect(session, modelPath) {
  console.log(`model: ${modelPath}`);
  for (const m of session.inputMetadata) console.log(`input  ${m.name}: ${dimsText(m)}`);
  for (const m of session.outputMetadata) console.log(`output ${m.name}: ${dimsText(m)}`);
  const script = path.join(__dirname, 'inspect_onnx.py');
  const r = spawnSync('/usr/bin/python3', [script, modelPath], { encoding: 'utf8' });
  if (r.status === 0) {
    const lines = r.stdout.split('\n');
    const from = lines.findIndex((l) => l.startsWith('opset:'));
    const ops = lines.findIndex((l) => l.startsWith('op types:'));
    if (from >= 0) console.log(lines[from]);
    if (ops >= 0) console.log(lines.slice(ops).join('\n').trimEnd());
  } else {
    console.log('op types: (needs Debian python3-onnx: apt-get install python3-onnx)');
  }
}

function toTensor(ort, array) {
  return new ort.Tensor(array.dtype, array.data, array.shape);
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

// min / max / mean of a numeric output (a quick look, e.g. that det's probability map reaches 1.0)
function statsText(data) {
  if (data.length === 0) return 'empty';
  let lo = Infinity;
  let hi = -Infinity;
  let sum = 0;
  for (let i = 0; i < data.length; i++) {
    const v = Number(data[i]);
    if (v < lo) lo = v;
    if (v > hi) hi = v;
    sum += v;
  }
  return `min=${lo.toPrecision(6)} max=${hi.toPrecision(6)} mean=${(sum / data.length).toPrecision(6)}`;
}

// File name for an output: its name with characters unsafe in paths replaced by '_'.
function outputFileName(name) {
  return name.replace(/[^A-Za-z0-9._-]/g, '_') + '.npy';
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const ort = loadOrt();
  const options = {
    executionProviders: ['cpu'],
    intraOpNumThreads: args.threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: args.optLevel,
  };
  const t0 = process.hrtime.bigint();
  const session = await ort.InferenceSession.create(args.model, options);
  const loadMs = Number(process.hrtime.bigint() - t0) / 1e6;
  if (args.inspect) {
    inspect(session, args.model);
    return;
  }

  const feeds = {};
  for (const { name, file } of args.inputs) {
    if (!session.inputNames.includes(name)) {
      throw new Error(`model has no input '${name}' (inputs: ${session.inputNames.join(', ')})`);
    }
    feeds[name] = toTensor(ort, readNpy(file));
  }
  const missing = session.inputNames.filter((n) => !(n in feeds));
  if (missing.length) throw new Error(`no --input for model input(s) ${missing.join(', ')}`);

  const results = await session.run(feeds);
  if (args.outputDir) {
    fs.mkdirSync(args.outputDir, { recursive: true });
    for (const name of session.outputNames) {
      const t = results[name];
      const file = path.join(args.outputDir, outputFileName(name));
      writeNpy(file, { dtype: t.type, shape: t.dims.map(Number), data: t.data });
      console.log(`output ${name}: ${t.type}[${t.dims.join(', ')}] ${statsText(t.data)} -> ${file}`);
    }
  }
  console.log(`session_create_ms=${loadMs.toFixed(1)}`);

  if (args.bench > 0) {
    for (let i = 0; i < args.warmup; i++) await session.run(feeds);
    const times = [];
    for (let i = 0; i < args.bench; i++) {
      const s = process.hrtime.bigint();
      await session.run(feeds);
      times.push(Number(process.hrtime.bigint() - s) / 1e6);
    }
    const mean = times.reduce((a, b) => a + b, 0) / times.length;
    console.log(`bench: median_ms=${median(times).toFixed(3)} min_ms=${Math.min(...times).toFixed(3)} ` +
      `mean_ms=${mean.toFixed(3)} runs=${times.length} threads=${args.threads}`);
  }
}

main().catch((e) => {
  console.error(`ort_run: ${e.message}`);
  process.exit(1);
});

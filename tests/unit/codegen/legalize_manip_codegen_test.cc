// The data-movement legalizations (and where / astype across dtypes)
// compiled through LLVM and checked against the same naive references as
// the interpreter tests (tests/unit/common/op_reference.h). Every op is
// legalized from a one-call module with symbolic dimensions, its PrimFunc is
// compiled twice by the JIT -- with the default CPU schedule
// (tir::ScheduleInjectiveCPU: parallel outer loop, vectorized inner loop with
// a tail) and without it -- and both run at several values of each symbolic
// dimension (1, odd, larger). shape_of, which legalizes to no kernel, is
// checked end to end through the default pipeline and the VM.
#include <gtest/gtest.h>

#include "../op/legalize_test_util.h"
#include "jit_test_util.h"
#include "rlx/codegen/vm_codegen.h"
#include "rlx/runtime/vm/vm.h"
#include "rlx/tir/transform.h"
#include "rlx/transform/pipeline.h"

namespace rlx::op_test {
namespace {

const DataType kF32 = DataType::Float32();
const DataType kF16 = DataType::Float(16);
const DataType kBF16 = DataType(DataType::kBFloat, 16);
const DataType kI32 = DataType::Int32();
const DataType kI64 = DataType::Int64();
const DataType kBool = DataType::Bool();

// The dtypes every data-movement op is compiled for: each memory
// representation (4-byte float, LLVM half, bfloat16 kept as i16 in memory,
// 8-byte integer, bool kept as i8 in memory). int32 is covered by the take,
// gather and astype tests.
const std::vector<DataType> kDataTypes = {kF32, kF16, kBF16, kI64, kBool};

// Values of each symbolic dimension: 1, odd, larger than a vector.
const std::vector<int64_t> kSizes = {1, 7, 64};

std::string TensorType(const std::string& shape, DataType dtype = kF32) {
  return "R.Tensor(" + shape + ", dtype=\"" + dtype.ToString() + "\")";
}

std::string At(const std::map<std::string, int64_t>& sizes) {
  std::string text;
  for (const auto& [name, value] : sizes) text += " " + name + "=" + std::to_string(value);
  return text;
}

// Random data of `dtype`: floats in [-8, 8) (rounded to the dtype), integers
// in [-50, 50), bools half true.
tir::HostTensor Data(DataType dtype, const Index& shape, unsigned seed) {
  return dtype.is_floating() ? RandomTensor(dtype, shape, seed, -8, 8) : RandomTensor(dtype, shape, seed, -50, 50);
}

// A legalized op with its PrimFunc compiled with and without the default
// CPU schedule.
struct CompiledOp {
  LegalizedOp op;
  runtime::Module scheduled;
  runtime::Module unscheduled;
};

runtime::Module CompileKernel(const tir::PrimFunc& func, bool schedule) {
  codegen::CodegenOptions options;
  options.schedule = schedule;
  return codegen_test::Compile(func, "kernel", options);
}

CompiledOp Compile(LegalizedOp op) {
  return {op, CompileKernel(op.func, true), CompileKernel(op.func, false)};
}

CompiledOp LegalizeAndCompile(const std::vector<std::pair<std::string, std::string>>& params,
                              const std::string& call_text, const std::vector<std::string>& sym_vars = {}) {
  return Compile(LegalizeCall(params, call_text, sym_vars));
}

// Runs the compiled kernel on `inputs` at `sizes`; returns its outputs.
std::vector<tir::HostTensor> RunCompiled(const LegalizedOp& op, const runtime::Module& module,
                                         const std::vector<tir::HostTensor>& inputs,
                                         const std::map<std::string, int64_t>& sizes) {
  std::vector<tir::HostTensor> outputs = MakeOutputs(op, sizes);
  std::vector<runtime::Value> args;
  std::vector<runtime::NDArray> out_arrays;
  for (const tir::HostTensor& t : inputs) args.push_back(codegen_test::ToNDArray(t));
  for (const tir::HostTensor& t : outputs) {
    out_arrays.push_back(codegen_test::ToNDArray(t));
    args.push_back(out_arrays.back());
  }
  for (int64_t v : TirVarValues(op, sizes)) args.push_back(runtime::Value(v));
  module.GetRequiredFunction("kernel").CallPacked(args);
  std::vector<tir::HostTensor> results;
  for (size_t k = 0; k < outputs.size(); ++k) {
    results.push_back(codegen_test::ToHostTensor(out_arrays[k], outputs[k].dtype));
  }
  return results;
}

// Runs both compilations and expects output k to be expected[k] (exactly,
// unless a tolerance is given: data movement only copies).
void ExpectCompiledOutputs(const CompiledOp& compiled, const std::vector<tir::HostTensor>& inputs,
                           const std::map<std::string, int64_t>& sizes, const std::vector<ExpectedTensor>& expected,
                           const std::string& what, double rel = 0, double abs_tol = 0) {
  for (bool schedule : {true, false}) {
    std::string where = what + At(sizes) + (schedule ? " (scheduled)" : " (unscheduled)");
    std::vector<tir::HostTensor> outputs =
        RunCompiled(compiled.op, schedule ? compiled.scheduled : compiled.unscheduled, inputs, sizes);
    ASSERT_EQ(outputs.size(), expected.size()) << where;
    for (size_t k = 0; k < expected.size(); ++k) {
      ExpectTensorNear(outputs[k], expected[k].shape, expected[k].values, rel, abs_tol,
                       where + " output " + std::to_string(k));
    }
  }
}

void ExpectCompiled(const CompiledOp& compiled, const std::vector<tir::HostTensor>& inputs,
                    const std::map<std::string, int64_t>& sizes, const ExpectedTensor& expected,
                    const std::string& what) {
  ExpectCompiledOutputs(compiled, inputs, sizes, {expected}, what);
}

// ---------------------------------------------------------------------------
// Row-major copies: reshape, flatten, expand_dims, squeeze

TEST(LegalizeManipCodegenTest, ReshapeMinusOneAndSymbolicTarget) {
  for (DataType dtype : kDataTypes) {
    SCOPED_TRACE(dtype.ToString());
    CompiledOp minus_one = LegalizeAndCompile({{"x", TensorType("(\"n\", 6)", dtype)}}, "R.reshape(x, R.shape([2, -1]))");
    CompiledOp split = LegalizeAndCompile({{"x", TensorType("(\"n\", 6)", dtype)}}, "R.reshape(x, R.shape([n, 2, 3]))",
                                          {"n"});
    CompiledOp merge = LegalizeAndCompile({{"x", TensorType("(2, \"n\", \"m\")", dtype)}},
                                          "R.reshape(x, R.shape([2, n * m]))", {"n", "m"});
    for (int64_t n : kSizes) {
      tir::HostTensor x = Data(dtype, {n, 6}, 1);
      ExpectCompiled(minus_one, {x}, {{"n", n}}, RowMajorCopyReference(x, {2, 3 * n}), "reshape [2, -1]");
      ExpectCompiled(split, {x}, {{"n", n}}, RowMajorCopyReference(x, {n, 2, 3}), "reshape [n, 2, 3]");
      for (int64_t m : {1, 5}) {
        tir::HostTensor y = Data(dtype, {2, n, m}, 2);
        ExpectCompiled(merge, {y}, {{"n", n}, {"m", m}}, RowMajorCopyReference(y, {2, n * m}), "reshape [2, n * m]");
      }
    }
  }
}

TEST(LegalizeManipCodegenTest, FlattenExpandDimsSqueeze) {
  for (DataType dtype : kDataTypes) {
    SCOPED_TRACE(dtype.ToString());
    CompiledOp flatten = LegalizeAndCompile({{"x", TensorType("(\"n\", 3, 2)", dtype)}}, "R.flatten(x)");
    CompiledOp expand = LegalizeAndCompile({{"x", TensorType("(3, \"n\")", dtype)}}, "R.expand_dims(x, axis=[0, -2])");
    CompiledOp expand_last = LegalizeAndCompile({{"x", TensorType("(\"n\", 3)", dtype)}}, "R.expand_dims(x, axis=[-1])");
    CompiledOp squeeze = LegalizeAndCompile({{"x", TensorType("(1, 2, 1, \"n\")", dtype)}}, "R.squeeze(x, axis=[0])");
    CompiledOp squeeze_all = LegalizeAndCompile({{"x", TensorType("(1, \"n\", 1)", dtype)}}, "R.squeeze(x, axis=[0, 2])");
    for (int64_t n : kSizes) {
      tir::HostTensor x = Data(dtype, {n, 3, 2}, 3);
      ExpectCompiled(flatten, {x}, {{"n", n}}, RowMajorCopyReference(x, {n * 6}), "flatten");
      tir::HostTensor y = Data(dtype, {3, n}, 4);
      ExpectCompiled(expand, {y}, {{"n", n}}, RowMajorCopyReference(y, {1, 3, 1, n}), "expand_dims [0, -2]");
      tir::HostTensor w = Data(dtype, {n, 3}, 4);
      ExpectCompiled(expand_last, {w}, {{"n", n}}, RowMajorCopyReference(w, {n, 3, 1}), "expand_dims [-1]");
      tir::HostTensor v = Data(dtype, {1, 2, 1, n}, 5);
      ExpectCompiled(squeeze, {v}, {{"n", n}}, RowMajorCopyReference(v, {2, 1, n}), "squeeze axis 0");
      tir::HostTensor z = Data(dtype, {1, n, 1}, 5);
      ExpectCompiled(squeeze_all, {z}, {{"n", n}}, RowMajorCopyReference(z, {n}), "squeeze axes 0, 2");
    }
  }
}

// ---------------------------------------------------------------------------
// permute_dims, broadcast_to, flip, repeat, tile

TEST(LegalizeManipCodegenTest, PermuteDims) {
  for (DataType dtype : kDataTypes) {
    SCOPED_TRACE(dtype.ToString());
    CompiledOp rotate = LegalizeAndCompile({{"x", TensorType("(\"n\", 3, \"m\")", dtype)}},
                                           "R.permute_dims(x, axes=[2, 0, 1])");
    CompiledOp reverse = LegalizeAndCompile({{"x", TensorType("(\"n\", 3, \"m\")", dtype)}}, "R.permute_dims(x)");
    CompiledOp swap_last = LegalizeAndCompile({{"x", TensorType("(2, \"n\", \"m\")", dtype)}},
                                              "R.permute_dims(x, axes=[0, -1, -2])");
    for (int64_t n : kSizes) {
      for (int64_t m : {1, 7, 64}) {
        tir::HostTensor x = Data(dtype, {n, 3, m}, 6);
        ExpectCompiled(rotate, {x}, {{"n", n}, {"m", m}}, PermuteDimsReference(x, {2, 0, 1}), "permute_dims [2, 0, 1]");
        ExpectCompiled(reverse, {x}, {{"n", n}, {"m", m}}, PermuteDimsReference(x), "permute_dims reversed");
        tir::HostTensor y = Data(dtype, {2, n, m}, 7);
        ExpectCompiled(swap_last, {y}, {{"n", n}, {"m", m}}, PermuteDimsReference(y, {0, -1, -2}),
                       "permute_dims [0, -1, -2]");
      }
    }
  }
}

TEST(LegalizeManipCodegenTest, BroadcastTo) {
  for (DataType dtype : kDataTypes) {
    SCOPED_TRACE(dtype.ToString());
    CompiledOp from_param = LegalizeAndCompile(
        {{"x", TensorType("(1, \"m\")", dtype)}, {"s", "R.Shape([\"n\", 2, \"m\"])"}}, "R.broadcast_to(x, s)");
    CompiledOp middle = LegalizeAndCompile({{"x", TensorType("(\"n\", 1, 2)", dtype)}},
                                           "R.broadcast_to(x, R.shape([3, n, 4, 2]))", {"n"});
    CompiledOp scalar = LegalizeAndCompile({{"x", TensorType("()", dtype)}, {"s", "R.Shape([\"n\", \"m\"])"}},
                                           "R.broadcast_to(x, s)");
    for (int64_t n : kSizes) {
      tir::HostTensor x = Data(dtype, {1, 37}, 8);
      ExpectCompiled(from_param, {x}, {{"n", n}, {"m", 37}}, BroadcastToReference(x, {n, 2, 37}), "broadcast_to (n, 2, m)");
      tir::HostTensor y = Data(dtype, {n, 1, 2}, 9);
      ExpectCompiled(middle, {y}, {{"n", n}}, BroadcastToReference(y, {3, n, 4, 2}), "broadcast_to (3, n, 4, 2)");
      tir::HostTensor z = Data(dtype, {}, 10);
      ExpectCompiled(scalar, {z}, {{"n", n}, {"m", 5}}, BroadcastToReference(z, {n, 5}), "broadcast_to scalar");
    }
  }
}

TEST(LegalizeManipCodegenTest, Flip) {
  for (DataType dtype : kDataTypes) {
    SCOPED_TRACE(dtype.ToString());
    CompiledOp rows = LegalizeAndCompile({{"x", TensorType("(\"n\", \"m\")", dtype)}}, "R.flip(x, axis=0)");
    CompiledOp cols = LegalizeAndCompile({{"x", TensorType("(\"n\", \"m\")", dtype)}}, "R.flip(x, axis=-1)");
    for (int64_t n : kSizes) {
      for (int64_t m : kSizes) {
        tir::HostTensor x = Data(dtype, {n, m}, 11);
        ExpectCompiled(rows, {x}, {{"n", n}, {"m", m}}, FlipReference(x, 0), "flip axis 0");
        ExpectCompiled(cols, {x}, {{"n", n}, {"m", m}}, FlipReference(x, -1), "flip axis -1");
      }
    }
  }
}

TEST(LegalizeManipCodegenTest, Repeat) {
  for (DataType dtype : kDataTypes) {
    SCOPED_TRACE(dtype.ToString());
    CompiledOp rows = LegalizeAndCompile({{"x", TensorType("(3, \"n\")", dtype)}}, "R.repeat(x, repeats=2, axis=0)");
    CompiledOp cols = LegalizeAndCompile({{"x", TensorType("(3, \"n\")", dtype)}}, "R.repeat(x, repeats=5, axis=-1)");
    CompiledOp flat = LegalizeAndCompile({{"x", TensorType("(3, \"n\")", dtype)}}, "R.repeat(x, repeats=3)");
    for (int64_t n : kSizes) {
      tir::HostTensor x = Data(dtype, {3, n}, 12);
      ExpectCompiled(rows, {x}, {{"n", n}}, RepeatReference(x, 2, 0), "repeat axis 0");
      ExpectCompiled(cols, {x}, {{"n", n}}, RepeatReference(x, 5, -1), "repeat axis -1");
      ExpectCompiled(flat, {x}, {{"n", n}}, RepeatReference(x, 3, std::nullopt), "repeat flattened");
    }
  }
}

TEST(LegalizeManipCodegenTest, Tile) {
  for (DataType dtype : kDataTypes) {
    SCOPED_TRACE(dtype.ToString());
    CompiledOp more = LegalizeAndCompile({{"x", TensorType("(3, \"n\")", dtype)}}, "R.tile(x, repeats=[2, 1, 2])");
    CompiledOp fewer = LegalizeAndCompile({{"x", TensorType("(2, 3, \"n\")", dtype)}}, "R.tile(x, repeats=[3])");
    for (int64_t n : kSizes) {
      tir::HostTensor x = Data(dtype, {3, n}, 13);
      ExpectCompiled(more, {x}, {{"n", n}}, TileReference(x, {2, 1, 2}), "tile [2, 1, 2]");
      tir::HostTensor y = Data(dtype, {2, 3, n}, 14);
      ExpectCompiled(fewer, {y}, {{"n", n}}, TileReference(y, {3}), "tile [3]");
    }
  }
}

// ---------------------------------------------------------------------------
// concat, split

TEST(LegalizeManipCodegenTest, ConcatSymbolic) {
  for (DataType dtype : kDataTypes) {
    SCOPED_TRACE(dtype.ToString());
    CompiledOp rows = LegalizeAndCompile({{"x", TensorType("(\"n\", 4)", dtype)}, {"y", TensorType("(\"m\", 4)", dtype)}},
                                         "R.concat((x, y), axis=0)");
    CompiledOp cols = LegalizeAndCompile({{"x", TensorType("(2, \"n\")", dtype)},
                                          {"y", TensorType("(2, 3)", dtype)},
                                          {"z", TensorType("(2, \"m\")", dtype)}},
                                         "R.concat((x, y, z), axis=-1)");
    for (int64_t n : kSizes) {
      for (int64_t m : kSizes) {
        tir::HostTensor x = Data(dtype, {n, 4}, 15), y = Data(dtype, {m, 4}, 16);
        ExpectCompiled(rows, {x, y}, {{"n", n}, {"m", m}}, ConcatReference({x, y}, 0), "concat axis 0 (n + m)");
        tir::HostTensor a = Data(dtype, {2, n}, 17), b = Data(dtype, {2, 3}, 18), c = Data(dtype, {2, m}, 19);
        ExpectCompiled(cols, {a, b, c}, {{"n", n}, {"m", m}}, ConcatReference({a, b, c}, -1),
                       "concat axis -1 (n + 3 + m)");
      }
    }
  }
}

TEST(LegalizeManipCodegenTest, SplitSectionsAndIndices) {
  for (DataType dtype : kDataTypes) {
    SCOPED_TRACE(dtype.ToString());
    CompiledOp sections = LegalizeAndCompile({{"x", TensorType("(\"n\", 10)", dtype)}},
                                             "R.split(x, indices_or_sections=3, axis=1)");
    CompiledOp rows = LegalizeAndCompile({{"x", TensorType("(10, \"n\")", dtype)}},
                                         "R.split(x, indices_or_sections=3, axis=0)");
    CompiledOp even = LegalizeAndCompile({{"x", TensorType("(3, \"n\")", dtype)}},
                                         "R.split(x, indices_or_sections=2, axis=1)");
    CompiledOp indices = LegalizeAndCompile({{"x", TensorType("(\"n\", \"m\")", dtype)}},
                                            "R.split(x, indices_or_sections=[2, 5], axis=0)");
    for (int64_t n : kSizes) {
      tir::HostTensor x = Data(dtype, {n, 10}, 20);
      ExpectCompiledOutputs(sections, {x}, {{"n", n}}, SplitReference(x, SplitSectionBounds(10, 3), 1),
                            "split 3 sections, axis 1");
      tir::HostTensor r = Data(dtype, {10, n}, 20);
      ExpectCompiledOutputs(rows, {r}, {{"n", n}}, SplitReference(r, SplitSectionBounds(10, 3), 0),
                            "split 3 sections, axis 0");
      // Even sections of a symbolic axis: its size is even here.
      tir::HostTensor e = Data(dtype, {3, 2 * n}, 21);
      ExpectCompiledOutputs(even, {e}, {{"n", 2 * n}}, SplitReference(e, SplitSectionBounds(2 * n, 2), 1),
                            "split 2 sections of 2n");
      for (int64_t length : {n, n + 3}) {
        tir::HostTensor y = Data(dtype, {length, 19}, 22);
        ExpectCompiledOutputs(indices, {y}, {{"n", length}, {"m", 19}},
                              SplitReference(y, SplitIndexBounds(length, {2, 5}), 0), "split at [2, 5]");
      }
    }
  }
}

// ---------------------------------------------------------------------------
// strided_slice

TEST(LegalizeManipCodegenTest, StridedSliceStaticNegativeStrides) {
  for (DataType dtype : kDataTypes) {
    SCOPED_TRACE(dtype.ToString());
    CompiledOp op = LegalizeAndCompile({{"x", TensorType("(10, 8)", dtype)}},
                                       "R.strided_slice(x, (0, 1), (1, -1), (8, -100), (2, -3))");
    tir::HostTensor x = Data(dtype, {10, 8}, 23);
    ExpectCompiled(op, {x}, {}, StridedSliceReference(x, {0, 1}, {1, -1}, {8, -100}, {2, -3}), "strided_slice static");
  }
}

TEST(LegalizeManipCodegenTest, StridedSliceSymbolic) {
  for (DataType dtype : kDataTypes) {
    SCOPED_TRACE(dtype.ToString());
    CompiledOp clamped = LegalizeAndCompile({{"x", TensorType("(\"n\", \"m\")", dtype)}},
                                            "R.strided_slice(x, (0,), (1,), (n,), (2,))", {"n"});
    CompiledOp reversed = LegalizeAndCompile({{"x", TensorType("(\"n\", \"m\")", dtype)}},
                                             "R.strided_slice(x, (0,), (-1,), (-100,), (-1,))", {"n"});
    CompiledOp backwards = LegalizeAndCompile({{"x", TensorType("(3, \"n\")", dtype)}},
                                              "R.strided_slice(x, (1,), (-2,), (0,), (-3,))", {"n"});
    CompiledOp inbound = LegalizeAndCompile(
        {{"x", TensorType("(3, \"m\")", dtype)}},
        "R.strided_slice(x, (1,), (R.prim_value(m // 2),), (m,), assume_inbound=True)", {"m"});
    for (int64_t n : kSizes) {
      tir::HostTensor x = Data(dtype, {n, 23}, 24);
      ExpectCompiled(clamped, {x}, {{"n", n}, {"m", 23}}, StridedSliceReference(x, {0}, {1}, {n}, {2}),
                     "strided_slice 1:n:2");
      ExpectCompiled(reversed, {x}, {{"n", n}, {"m", 23}}, StridedSliceReference(x, {0}, {-1}, {-100}, {-1}),
                     "strided_slice ::-1");
      tir::HostTensor y = Data(dtype, {3, n}, 25);
      ExpectCompiled(backwards, {y}, {{"n", n}}, StridedSliceReference(y, {1}, {-2}, {0}, {-3}),
                     "strided_slice -2:0:-3");
      int64_t m = n + 2;
      tir::HostTensor z = Data(dtype, {3, m}, 26);
      ExpectCompiled(inbound, {z}, {{"m", m}}, StridedSliceReference(z, {1}, {m / 2}, {m}), "strided_slice m//2:m");
    }
  }
}

// ---------------------------------------------------------------------------
// take, gather_elements, scatter_elements

TEST(LegalizeManipCodegenTest, TakeModesAndIndexDtypes) {
  for (const std::string mode : {"fast", "clip", "wrap", "nan"}) {
    for (DataType index_dtype : {kI32, kI64}) {
      for (DataType dtype : {kF32, kF16, kI64}) {
        if (mode == "nan" && !dtype.is_floating()) continue;  // NaN needs a float
        std::string what = "take mode=" + mode + " " + dtype.ToString() + "[" + index_dtype.ToString() + "]";
        CompiledOp op = LegalizeAndCompile(
            {{"x", TensorType("(\"n\", 5)", dtype)}, {"i", TensorType("(\"k\",)", index_dtype)}},
            "R.take(x, i, axis=1, mode=\"" + mode + "\")");
        for (int64_t n : kSizes) {
          for (int64_t k : {1, 7, 64}) {
            tir::HostTensor idx =
                mode == "fast" ? RandomTensor(index_dtype, {k}, 27, 0, 5) : RandomTensor(index_dtype, {k}, 27, -9, 12);
            tir::HostTensor x = Data(dtype, {n, 5}, 28);
            ExpectCompiled(op, {x, idx}, {{"n", n}, {"k", k}}, TakeReference(x, idx, 1, mode), what);
          }
        }
      }
    }
  }
}

TEST(LegalizeManipCodegenTest, TakeMultiDimIndicesAxis0) {
  for (DataType dtype : kDataTypes) {
    SCOPED_TRACE(dtype.ToString());
    CompiledOp op = LegalizeAndCompile(
        {{"x", TensorType("(\"n\", \"m\")", dtype)}, {"i", TensorType("(2, \"k\")", kI64)}}, "R.take(x, i, axis=0)");
    for (int64_t n : kSizes) {
      for (int64_t k : {1, 7}) {
        tir::HostTensor x = Data(dtype, {n, 33}, 29);
        tir::HostTensor idx = RandomTensor(kI64, {2, k}, 30, 0, static_cast<double>(n));
        ExpectCompiled(op, {x, idx}, {{"n", n}, {"k", k}, {"m", 33}}, TakeReference(x, idx, 0), "take 2-D indices");
      }
    }
  }
}

TEST(LegalizeManipCodegenTest, GatherElements) {
  for (DataType dtype : kDataTypes) {
    SCOPED_TRACE(dtype.ToString());
    CompiledOp cols = LegalizeAndCompile(
        {{"d", TensorType("(\"n\", 4)", dtype)}, {"i", TensorType("(\"n\", \"j\")", kI32)}}, "R.gather_elements(d, i, axis=1)");
    CompiledOp rows = LegalizeAndCompile(
        {{"d", TensorType("(\"n\", \"m\")", dtype)}, {"i", TensorType("(\"k\", \"m\")", kI64)}}, "R.gather_elements(d, i, axis=0)");
    for (int64_t n : kSizes) {
      tir::HostTensor d = Data(dtype, {n, 4}, 31);
      tir::HostTensor idx = RandomTensor(kI32, {n, 21}, 32, -4, 4);  // negative: from the end
      ExpectCompiled(cols, {d, idx}, {{"n", n}, {"j", 21}}, GatherElementsReference(d, idx, 1),
                     "gather_elements axis 1");
      tir::HostTensor e = Data(dtype, {n, 19}, 31);
      for (int64_t k : {1, 9}) {
        tir::HostTensor rows_idx = RandomTensor(kI64, {k, 19}, 33, -static_cast<double>(n), static_cast<double>(n));
        ExpectCompiled(rows, {e, rows_idx}, {{"n", n}, {"k", k}, {"m", 19}}, GatherElementsReference(e, rows_idx, 0),
                       "gather_elements axis 0");
      }
    }
  }
}

TEST(LegalizeManipCodegenTest, ScatterElementsReductions) {
  for (const std::string reduction : {"update", "add", "mul", "mean", "max", "min"}) {
    for (DataType dtype : {kF32, kF16, kI32}) {
      if (reduction == "mean" && !dtype.is_floating()) continue;  // the running mean of integers truncates
      std::string what = "scatter_elements " + reduction + " " + dtype.ToString();
      CompiledOp op = LegalizeAndCompile({{"d", TensorType("(5, \"n\")", dtype)},
                                          {"i", TensorType("(\"k\", \"n\")", kI64)},
                                          {"u", TensorType("(\"k\", \"n\")", dtype)}},
                                         "R.scatter_elements(d, i, u, axis=0, reduction=\"" + reduction + "\")");
      for (int64_t n : kSizes) {
        for (int64_t k : {1, 4}) {
          tir::HostTensor d = RandomTensor(dtype, {5, n}, 34, -4, 4);
          tir::HostTensor idx = RandomTensor(kI64, {k, n}, 35, -5, 5);  // duplicates and negatives
          tir::HostTensor u = RandomTensor(dtype, {k, n}, 36, -4, 4);
          ExpectedTensor expected = ScatterElementsReference(d, idx, u, 0, reduction);
          double rel = dtype == kF16 ? 2e-3 : 1e-6;
          ExpectCompiledOutputs(op, {d, idx, u}, {{"n", n}, {"k", k}}, {expected}, what, rel, rel);
        }
      }
    }
  }
}

// A data dim that is a compound symbolic expression (n * 2, as ScatterND's
// flattened leading dims): n reaches the kernel as a tir_var.
TEST(LegalizeManipCodegenTest, ScatterElementsCompoundSymbolicDim) {
  CompiledOp op = LegalizeAndCompile({{"d", TensorType("(\"n\", 2, 3)")},
                                      {"i", TensorType("(\"k\", 3)", kI64)},
                                      {"u", TensorType("(\"k\", 3)")}},
                                     "R.scatter_elements(R.reshape(d, R.shape([n * 2, 3])), i, u, axis=0, reduction=\"add\")",
                                     {"n"});
  ASSERT_EQ(op.op.call->args.size(), 3u) << "expected tir_vars";
  for (int64_t n : kSizes) {
    for (int64_t k : {1, 5}) {
      tir::HostTensor d = RandomTensor(kF32, {n * 2, 3}, 37, -4, 4);
      tir::HostTensor idx = RandomTensor(kI64, {k, 3}, 38, -2.0 * static_cast<double>(n), 2.0 * static_cast<double>(n));
      tir::HostTensor u = RandomTensor(kF32, {k, 3}, 39, -4, 4);
      ExpectCompiledOutputs(op, {d, idx, u}, {{"n", n}, {"k", k}}, {ScatterElementsReference(d, idx, u, 0, "add")},
                            "scatter_elements over n * 2 rows", 1e-6, 1e-6);
    }
  }
}

// ---------------------------------------------------------------------------
// layout_transform

TEST(LegalizeManipCodegenTest, LayoutTransformPaddedAndTranspose) {
  for (DataType dtype : kDataTypes) {
    SCOPED_TRACE(dtype.ToString());
    std::string pad = dtype.is_bool() ? "R.prim_value(T.bool(True))"
                                      : "R.prim_value(T." + dtype.ToString() + "(" + (dtype.is_floating() ? "-1.5" : "-1") + "))";
    double pad_value = dtype.is_bool() ? 1 : (dtype.is_floating() ? -1.5 : -1);
    CompiledOp padded = LegalizeAndCompile({{"x", TensorType("(\"n\", 14)", dtype)}},
                                           "R.layout_transform(x, index_map=T.index_map(lambda i, j: (j // 4, j % 4, i)), "
                                           "pad_value=" + pad + ")");
    CompiledOp transpose = LegalizeAndCompile({{"x", TensorType("(\"n\", \"m\")", dtype)}},
                                              "R.layout_transform(x, index_map=T.index_map(lambda a, b: (b, a)))");
    CompiledOp blocked = LegalizeAndCompile({{"x", TensorType("(\"n\",)", dtype)}},
                                            "R.layout_transform(x, index_map=T.index_map(lambda i: (i // 8, i % 8)), "
                                            "pad_value=" + pad + ")");
    for (int64_t n : kSizes) {
      tir::HostTensor x = Data(dtype, {n, 14}, 37);
      ExpectCompiled(padded, {x}, {{"n", n}},
                     LayoutTransformReference(x, {4, 4, n}, [](const Index& i) { return Index{i[1] / 4, i[1] % 4, i[0]}; },
                                              pad_value),
                     "layout_transform (j // 4, j % 4, i)");
      for (int64_t m : {1, 7}) {
        tir::HostTensor y = Data(dtype, {n, m}, 38);
        ExpectCompiled(transpose, {y}, {{"n", n}, {"m", m}},
                       LayoutTransformReference(y, {m, n}, [](const Index& i) { return Index{i[1], i[0]}; }, 0),
                       "layout_transform (b, a)");
      }
      tir::HostTensor z = Data(dtype, {n}, 39);
      ExpectCompiled(blocked, {z}, {{"n", n}},
                     LayoutTransformReference(z, {(n + 7) / 8, 8}, [](const Index& i) { return Index{i[0] / 8, i[0] % 8}; },
                                              pad_value),
                     "layout_transform (i // 8, i % 8)");
    }
  }
}

// ---------------------------------------------------------------------------
// where, astype across dtypes

TEST(LegalizeManipCodegenTest, WhereAcrossDtypes) {
  for (DataType dtype : kDataTypes) {
    SCOPED_TRACE(dtype.ToString());
    CompiledOp op = LegalizeAndCompile({{"c", TensorType("(\"n\", 1)", kBool)},
                                        {"x1", TensorType("(\"n\", \"m\")", dtype)},
                                        {"x2", TensorType("(\"m\",)", dtype)}},
                                       "R.where(c, x1, x2)");
    for (int64_t n : kSizes) {
      for (int64_t m : kSizes) {
        tir::HostTensor c = RandomTensor(kBool, {n, 1}, 40), x1 = Data(dtype, {n, m}, 41), x2 = Data(dtype, {m}, 42);
        ExpectCompiled(op, {c, x1, x2}, {{"n", n}, {"m", m}}, WhereReference(c, x1, x2), "where");
      }
    }
  }
}

TEST(LegalizeManipCodegenTest, AstypeAcrossDtypes) {
  const std::vector<DataType> dtypes = {kF32, kF16, kBF16, kI32, kI64, kBool};
  std::vector<std::pair<DataType, DataType>> casts;
  for (DataType from : dtypes) {
    for (DataType to : dtypes) {
      if (from != to) casts.emplace_back(from, to);
    }
  }
  for (DataType other : {DataType::Float(64), DataType::Int(8), DataType::UInt(8)}) {
    casts.emplace_back(kF32, other);
    casts.emplace_back(other, kF16);
  }
  for (auto [from, to] : casts) {
    {
      std::string what = "astype " + from.ToString() + " -> " + to.ToString();
      CompiledOp op = LegalizeAndCompile({{"x", TensorType("(3, \"n\")", from)}},
                                         "R.astype(x, dtype=\"" + to.ToString() + "\")");
      for (int64_t n : kSizes) {
        // Values every dtype holds (uint8: non-negative; the int8 range).
        double lo = from.is_uint() || to.is_uint() ? 0 : -100, hi = 100;
        tir::HostTensor x = from.is_bool() ? RandomTensor(from, {3, n}, 43) : RandomTensor(from, {3, n}, 43, lo, hi);
        ExpectCompiled(op, {x}, {{"n", n}}, AstypeReference(x, to), what);
      }
    }
  }
}

// ---------------------------------------------------------------------------
// The two code paths differ: the default schedule rewrites these nests.
// (layout_transform is not among them: it legalizes to plain loops without
// blocks -- a fill and a scatter -- which the schedule leaves alone.)

TEST(LegalizeManipCodegenTest, DefaultScheduleVectorizesDataMovement) {
  const std::vector<std::pair<std::vector<std::pair<std::string, std::string>>, std::string>> calls = {
      {{{"x", TensorType("(\"n\", 6)")}}, "R.reshape(x, R.shape([2, -1]))"},
      {{{"x", TensorType("(\"n\", 3, 2)")}}, "R.flatten(x)"},
      {{{"x", TensorType("(3, \"n\")")}}, "R.expand_dims(x, axis=[0, -2])"},
      {{{"x", TensorType("(1, 2, 1, \"n\")")}}, "R.squeeze(x, axis=[0])"},
      {{{"x", TensorType("(\"n\", 3, \"m\")")}}, "R.permute_dims(x)"},
      {{{"x", TensorType("(\"n\", 1, 2)")}}, "R.broadcast_to(x, R.shape([3, 4, 2, n]))"},
      {{{"x", TensorType("(\"n\", \"m\")")}}, "R.flip(x, axis=-1)"},
      {{{"x", TensorType("(3, \"n\")")}}, "R.tile(x, repeats=[2, 1, 2])"},
      {{{"x", TensorType("(3, \"n\")")}}, "R.repeat(x, repeats=2, axis=0)"},
      {{{"x", TensorType("(2, \"n\")")}, {"y", TensorType("(2, 3)")}}, "R.concat((x, y), axis=1)"},
      {{{"x", TensorType("(10, \"n\")")}}, "R.split(x, indices_or_sections=3, axis=0)"},
      {{{"x", TensorType("(\"n\", \"m\")")}}, "R.strided_slice(x, (0,), (-1,), (-100,), (-1,))"},
      {{{"x", TensorType("(\"n\", 5)")}, {"i", TensorType("(\"k\",)", kI32)}}, "R.take(x, i, axis=1)"},
      {{{"d", TensorType("(\"n\", 4)")}, {"i", TensorType("(\"n\", \"k\")", kI32)}}, "R.gather_elements(d, i, axis=1)"},
      {{{"c", TensorType("(\"n\", 1)", kBool)}, {"x", TensorType("(\"n\", \"m\")")}, {"y", TensorType("(\"m\",)")}},
       "R.where(c, x, y)"},
      {{{"x", TensorType("(3, \"n\")", kF16)}}, "R.astype(x, dtype=\"bfloat16\")"},
  };
  for (const auto& [params, call] : calls) {
    bool vectorized = false, parallel = false;
    tir::PostOrderVisit(tir::ScheduleInjectiveCPU(LegalizeCall(params, call, {"n"}).func)->body,
                        [&](const ObjectRef& node) {
                          if (const auto* loop = node.as<tir::ForNode>()) {
                            vectorized |= loop->for_kind == tir::ForKind::kVectorized;
                            parallel |= loop->for_kind == tir::ForKind::kParallel;
                          }
                        });
    EXPECT_TRUE(vectorized && parallel) << call << ": expected a parallel and a vectorized loop";
  }
}

// Regression: the vectorized loops of the default schedule used to stay
// scalar whenever a load address was not affine in the loop variable (the
// flatten below reads x[i // 6, i // 2 % 3, i % 2]; flip and take read
// backwards or through an index tensor): LLVM's loop vectorizer could not
// bound the accesses to rule out aliasing and gave up ("loop not
// vectorized"). The codegen now declares the accesses of a vectorized loop
// parallel, so the kernels hold vector code.
TEST(LegalizeManipCodegenTest, VectorizedLoopsWithGathersBecomeVectorCode) {
  const std::vector<std::pair<std::vector<std::pair<std::string, std::string>>, std::string>> calls = {
      {{{"x", TensorType("(\"n\", 3, 2)")}}, "R.flatten(x)"},
      {{{"x", TensorType("(\"n\", \"m\")")}}, "R.flip(x, axis=-1)"},
      {{{"x", TensorType("(\"n\", 5)")}, {"i", TensorType("(\"k\",)", kI32)}}, "R.take(x, i, axis=1)"},
      {{{"x", TensorType("(\"n\", 3, \"m\")")}}, "R.permute_dims(x)"},
  };
  for (const auto& [params, call] : calls) {
    auto jit = codegen::JitModule::Compile({{"kernel", LegalizeCall(params, call).func}});
    const std::string& ir = jit->GetLLVMIR();
    EXPECT_NE(ir.find("x float>"), std::string::npos) << call << ": no vector code";
    // A loop the vectorizer could not transform keeps its request.
    EXPECT_EQ(ir.find("llvm.loop.vectorize.enable"), std::string::npos) << call << ": a loop was left scalar";
  }
}

// ---------------------------------------------------------------------------
// shape_of: no kernel of its own; end to end, the shape it reads at run time
// drives a reshape compiled through LLVM.

TEST(LegalizeManipCodegenTest, ShapeOfEndToEnd) {
  op::RegisterAllOps();
  ir::IRModule mod = text::ParseModuleText(R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", "m"), dtype="float32"), y: R.Tensor(("m", "n"), dtype="float32")):
        s = R.shape_of(y)
        z = R.reshape(x, s)
        return (z, s)
)");
  codegen::VMCompiled compiled = codegen::CompileForVM(transform::DefaultPipeline()(mod));
  runtime::vm::VirtualMachine vm(compiled.exec, compiled.library);
  for (int64_t n : kSizes) {
    for (int64_t m : {1, 7}) {
      tir::HostTensor x = RandomTensor(kF32, {n, m}, 44), y = RandomTensor(kF32, {m, n}, 45);
      runtime::Value result =
          vm.Invoke("main", {runtime::Value(codegen_test::ToNDArray(x)), runtime::Value(codegen_test::ToNDArray(y))});
      tir::HostTensor z = codegen_test::ToHostTensor(result.AsArray()[0].AsNDArray(), kF32);
      ExpectTensorEq(z, RowMajorCopyReference(x, {m, n}), "reshape to shape_of(y)" + At({{"n", n}, {"m", m}}));
      EXPECT_EQ(result.AsArray()[1].AsShape(), (runtime::ShapeTuple{m, n}));
    }
  }
}

}  // namespace
}  // namespace rlx::op_test

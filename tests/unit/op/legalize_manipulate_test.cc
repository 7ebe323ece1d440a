// Numerical tests of the data-movement legalizations: each call is
// legalized to a PrimFunc, which the TIR interpreter runs at several sizes
// (1, odd, larger; every symbolic dimension at several values) against the
// naive C++ references of tests/unit/common/op_reference.h, which compute
// each output element from the operator's definition (the same references
// check the compiled PrimFuncs in tests/unit/codegen/legalize_manip_codegen_test.cc).
#include <gtest/gtest.h>

#include <algorithm>

#include "legalize_test_util.h"

namespace rlx::op_test {
namespace {

const DataType kF32 = DataType::Float32();
const DataType kI32 = DataType::Int32();
const DataType kI64 = DataType::Int64();

// Runs `op` on `inputs` at `sizes` and expects output `k` to be `expected`
// exactly.
void ExpectOutput(const LegalizedOp& op, const std::vector<tir::HostTensor>& inputs,
                  const std::map<std::string, int64_t>& sizes, size_t k, const ExpectedTensor& expected,
                  const std::string& what) {
  std::vector<tir::HostTensor> outputs = RunLegalizedMulti(op, inputs, sizes);
  ASSERT_LT(k, outputs.size()) << what;
  ExpectTensorEq(outputs[k], expected, what);
}

std::string At(int64_t n) { return "n=" + std::to_string(n); }

const std::vector<int64_t> kSizes = {1, 3, 8};

// ---------------------------------------------------------------------------
// Copies in row-major order: reshape, flatten, expand_dims, squeeze.

void ExpectRowMajorCopy(const LegalizedOp& op, const Index& in_shape, const Index& out_shape,
                        const std::map<std::string, int64_t>& sizes, const std::string& what) {
  tir::HostTensor x = RandomTensor(kF32, in_shape, 7);
  ExpectOutput(op, {x}, sizes, 0, RowMajorCopyReference(x, out_shape), what);
}

TEST(LegalizeManipulateTest, ReshapeSymbolicWithMinusOne) {
  LegalizedOp op = LegalizeCall({{"x", "R.Tensor((\"n\", 6), dtype=\"float32\")"}}, "R.reshape(x, R.shape([-1, 3]))");
  for (int64_t n : kSizes) ExpectRowMajorCopy(op, {n, 6}, {n * 2, 3}, {{"n", n}}, "reshape " + At(n));
}

TEST(LegalizeManipulateTest, ReshapeStatic) {
  LegalizedOp op = LegalizeCall({{"x", "R.Tensor((2, 3, 4), dtype=\"float32\")"}}, "R.reshape(x, R.shape([4, 6]))");
  ExpectRowMajorCopy(op, {2, 3, 4}, {4, 6}, {}, "reshape static");
}

TEST(LegalizeManipulateTest, FlattenExpandDimsSqueeze) {
  LegalizedOp flatten = LegalizeCall({{"x", "R.Tensor((\"n\", 3, 2), dtype=\"float32\")"}}, "R.flatten(x)");
  LegalizedOp expand = LegalizeCall({{"x", "R.Tensor((\"n\", 3), dtype=\"float32\")"}}, "R.expand_dims(x, axis=[0, -1])");
  LegalizedOp squeeze = LegalizeCall({{"x", "R.Tensor((1, \"n\", 1), dtype=\"float32\")"}}, "R.squeeze(x, axis=[0])");
  LegalizedOp squeeze_all = LegalizeCall({{"x", "R.Tensor((1, 5, 1), dtype=\"float32\")"}}, "R.squeeze(x)");
  for (int64_t n : kSizes) {
    ExpectRowMajorCopy(flatten, {n, 3, 2}, {n * 6}, {{"n", n}}, "flatten " + At(n));
    ExpectRowMajorCopy(expand, {n, 3}, {1, n, 3, 1}, {{"n", n}}, "expand_dims " + At(n));
    ExpectRowMajorCopy(squeeze, {1, n, 1}, {n, 1}, {{"n", n}}, "squeeze " + At(n));
  }
  ExpectRowMajorCopy(squeeze_all, {1, 5, 1}, {5}, {}, "squeeze all");
}

// ---------------------------------------------------------------------------
// permute_dims, broadcast_to, flip, repeat, tile

TEST(LegalizeManipulateTest, PermuteDims) {
  LegalizedOp op =
      LegalizeCall({{"x", "R.Tensor((\"n\", 3, \"m\"), dtype=\"float32\")"}}, "R.permute_dims(x, axes=[2, 0, 1])");
  LegalizedOp reverse = LegalizeCall({{"x", "R.Tensor((2, 5), dtype=\"int32\")"}}, "R.permute_dims(x)");
  for (int64_t n : kSizes) {
    for (int64_t m : {1, 4}) {
      tir::HostTensor x = RandomTensor(kF32, {n, 3, m}, 3);
      ExpectOutput(op, {x}, {{"n", n}, {"m", m}}, 0, PermuteDimsReference(x, {2, 0, 1}), "permute_dims " + At(n));
    }
  }
  tir::HostTensor x = RandomTensor(kI32, {2, 5}, 4, -50, 50);
  ExpectOutput(reverse, {x}, {}, 0, PermuteDimsReference(x), "permute_dims reverse");
}

TEST(LegalizeManipulateTest, BroadcastTo) {
  // The target shape comes from a Shape-typed parameter.
  LegalizedOp op = LegalizeCall(
      {{"x", "R.Tensor((1, 3), dtype=\"float32\")"}, {"s", "R.Shape([\"n\", 2, 3])"}}, "R.broadcast_to(x, s)");
  LegalizedOp middle = LegalizeCall({{"x", "R.Tensor((\"n\", 1, 2), dtype=\"float32\")"}},
                                    "R.broadcast_to(x, R.shape([3, n, 4, 2]))", {"n"});
  for (int64_t n : kSizes) {
    tir::HostTensor x = RandomTensor(kF32, {1, 3}, 5);
    ExpectOutput(op, {x}, {{"n", n}}, 0, BroadcastToReference(x, {n, 2, 3}), "broadcast_to " + At(n));
    tir::HostTensor y = RandomTensor(kF32, {n, 1, 2}, 6);
    ExpectOutput(middle, {y}, {{"n", n}}, 0, BroadcastToReference(y, {3, n, 4, 2}), "broadcast_to middle " + At(n));
  }
}

TEST(LegalizeManipulateTest, Flip) {
  LegalizedOp rows = LegalizeCall({{"x", "R.Tensor((\"n\", 3), dtype=\"float32\")"}}, "R.flip(x, axis=0)");
  LegalizedOp cols = LegalizeCall({{"x", "R.Tensor((\"n\", 3), dtype=\"float32\")"}}, "R.flip(x, axis=-1)");
  for (int64_t n : kSizes) {
    tir::HostTensor x = RandomTensor(kF32, {n, 3}, 6);
    ExpectOutput(rows, {x}, {{"n", n}}, 0, FlipReference(x, 0), "flip rows " + At(n));
    ExpectOutput(cols, {x}, {{"n", n}}, 0, FlipReference(x, -1), "flip cols " + At(n));
  }
}

TEST(LegalizeManipulateTest, Repeat) {
  LegalizedOp rows = LegalizeCall({{"x", "R.Tensor((\"n\", 3), dtype=\"float32\")"}}, "R.repeat(x, repeats=2, axis=0)");
  LegalizedOp flat = LegalizeCall({{"x", "R.Tensor((\"n\", 3), dtype=\"float32\")"}}, "R.repeat(x, repeats=3)");
  for (int64_t n : kSizes) {
    tir::HostTensor x = RandomTensor(kF32, {n, 3}, 8);
    ExpectOutput(rows, {x}, {{"n", n}}, 0, RepeatReference(x, 2, 0), "repeat axis 0 " + At(n));
    ExpectOutput(flat, {x}, {{"n", n}}, 0, RepeatReference(x, 3, std::nullopt), "repeat flat " + At(n));
  }
}

TEST(LegalizeManipulateTest, Tile) {
  LegalizedOp op = LegalizeCall({{"x", "R.Tensor((\"n\", 3), dtype=\"float32\")"}}, "R.tile(x, repeats=[2, 1, 2])");
  for (int64_t n : kSizes) {
    tir::HostTensor x = RandomTensor(kF32, {n, 3}, 9);
    ExpectOutput(op, {x}, {{"n", n}}, 0, TileReference(x, {2, 1, 2}), "tile " + At(n));
  }
}

// ---------------------------------------------------------------------------
// concat, split

TEST(LegalizeManipulateTest, ConcatSymbolic) {
  LegalizedOp op = LegalizeCall({{"x", "R.Tensor((\"n\", 4), dtype=\"float32\")"},
                                 {"y", "R.Tensor((\"m\", 4), dtype=\"float32\")"}},
                                "R.concat((x, y), axis=0)");
  for (int64_t n : kSizes) {
    for (int64_t m : {1, 2, 5}) {
      tir::HostTensor x = RandomTensor(kF32, {n, 4}, 10);
      tir::HostTensor y = RandomTensor(kF32, {m, 4}, 11);
      ExpectOutput(op, {x, y}, {{"n", n}, {"m", m}}, 0, ConcatReference({x, y}, 0),
                   "concat " + At(n) + " m=" + std::to_string(m));
    }
  }
}

TEST(LegalizeManipulateTest, ConcatOfATupleVariable) {
  // The tuple is bound to a variable: legalization unpacks it first.
  std::string text = OneCallModule({{"x", "R.Tensor((\"n\", 2), dtype=\"float32\")"},
                                    {"y", "R.Tensor((3, 2), dtype=\"float32\")"}},
                                   "R.concat(t, axis=0)");
  text.replace(text.find("        gv = "), 0, "        t = (y, x)\n");
  LegalizedOp op = LegalizeModuleText(text);
  for (int64_t n : kSizes) {
    tir::HostTensor x = RandomTensor(kF32, {n, 2}, 28);
    tir::HostTensor y = RandomTensor(kF32, {3, 2}, 29);
    ExpectOutput(op, {y, x}, {{"n", n}}, 0, ConcatReference({y, x}, 0), "concat of a tuple variable " + At(n));
  }
}

TEST(LegalizeManipulateTest, ConcatThreeStatic) {
  LegalizedOp op = LegalizeCall({{"x", "R.Tensor((2, 1), dtype=\"int64\")"},
                                 {"y", "R.Tensor((2, 3), dtype=\"int64\")"},
                                 {"z", "R.Tensor((2, 2), dtype=\"int64\")"}},
                                "R.concat((x, y, z), axis=1)");
  tir::HostTensor x = Iota(kI64, {2, 1}), y = Iota(kI64, {2, 3}), z = Iota(kI64, {2, 2});
  ExpectOutput(op, {x, y, z}, {}, 0, ConcatReference({x, y, z}, 1), "concat three");
}

TEST(LegalizeManipulateTest, SplitSections) {
  LegalizedOp op =
      LegalizeCall({{"x", "R.Tensor((\"n\", 10), dtype=\"float32\")"}}, "R.split(x, indices_or_sections=3, axis=1)");
  ASSERT_EQ(SplitSectionBounds(10, 3), (Index{0, 4, 8, 10}));
  for (int64_t n : kSizes) {
    tir::HostTensor x = RandomTensor(kF32, {n, 10}, 12);
    std::vector<ExpectedTensor> pieces = SplitReference(x, SplitSectionBounds(10, 3), 1);
    for (size_t k = 0; k < 3; ++k) {
      ExpectOutput(op, {x}, {{"n", n}}, k, pieces[k], "split piece " + std::to_string(k) + " " + At(n));
    }
  }
}

TEST(LegalizeManipulateTest, SplitSymbolicIndices) {
  LegalizedOp op =
      LegalizeCall({{"x", "R.Tensor((\"n\", 2), dtype=\"float32\")"}}, "R.split(x, indices_or_sections=[2, 5], axis=0)");
  for (int64_t n : {1, 3, 4, 9}) {
    tir::HostTensor x = RandomTensor(kF32, {n, 2}, 13);
    std::vector<ExpectedTensor> pieces = SplitReference(x, SplitIndexBounds(n, {2, 5}), 0);
    for (size_t k = 0; k < 3; ++k) {
      ExpectOutput(op, {x}, {{"n", n}}, k, pieces[k], "split at indices, piece " + std::to_string(k) + " " + At(n));
    }
  }
}

// ---------------------------------------------------------------------------
// strided_slice

TEST(LegalizeManipulateTest, StridedSliceStatic) {
  LegalizedOp op = LegalizeCall({{"x", "R.Tensor((10, 8), dtype=\"float32\")"}},
                                "R.strided_slice(x, (0, 1), (1, -1), (8, -100), (2, -3))");
  tir::HostTensor x = RandomTensor(kF32, {10, 8}, 14);
  ExpectOutput(op, {x}, {}, 0, StridedSliceReference(x, {0, 1}, {1, -1}, {8, -100}, {2, -3}), "strided_slice static");
}

TEST(LegalizeManipulateTest, StridedSliceSymbolic) {
  LegalizedOp clamped = LegalizeCall({{"x", "R.Tensor((\"n\", 4), dtype=\"float32\")"}},
                                     "R.strided_slice(x, (0,), (1,), (n,), (2,))", {"n"});
  LegalizedOp reversed = LegalizeCall({{"x", "R.Tensor((\"n\", 4), dtype=\"float32\")"}},
                                      "R.strided_slice(x, (0,), (-1,), (-100,), (-1,))", {"n"});
  LegalizedOp inbound = LegalizeCall({{"x", "R.Tensor((3, \"m\"), dtype=\"float32\")"}},
                                     "R.strided_slice(x, (1,), (R.prim_value(m // 2),), (m,), assume_inbound=True)",
                                     {"m"});
  for (int64_t n : {1, 2, 3, 8}) {
    tir::HostTensor x = RandomTensor(kF32, {n, 4}, 15);
    ExpectOutput(clamped, {x}, {{"n", n}}, 0, StridedSliceReference(x, {0}, {1}, {n}, {2}),
                 "strided_slice 1:n:2 " + At(n));
    ExpectOutput(reversed, {x}, {{"n", n}}, 0, StridedSliceReference(x, {0}, {-1}, {-100}, {-1}),
                 "strided_slice ::-1 " + At(n));
    int64_t m = n + 1;
    tir::HostTensor y = RandomTensor(kF32, {3, m}, 16);
    ExpectOutput(inbound, {y}, {{"m", m}}, 0, StridedSliceReference(y, {1}, {m / 2}, {m}),
                 "strided_slice m//2:m m=" + std::to_string(m));
  }
}

// ---------------------------------------------------------------------------
// take, gather_elements, scatter_elements

TEST(LegalizeManipulateTest, TakeModes) {
  const std::vector<std::string> modes = {"fast", "clip", "wrap", "nan"};
  for (const std::string& mode : modes) {
    LegalizedOp op = LegalizeCall({{"x", "R.Tensor((\"n\", 5), dtype=\"float32\")"},
                                   {"i", "R.Tensor((\"k\",), dtype=\"int32\")"}},
                                  "R.take(x, i, axis=1, mode=\"" + mode + "\")");
    for (int64_t n : kSizes) {
      for (int64_t k : {1, 7}) {
        // fast requires in-range indices; the others see out-of-range ones too.
        tir::HostTensor idx = mode == "fast" ? RandomTensor(kI32, {k}, 17, 0, 5) : RandomTensor(kI32, {k}, 17, -9, 12);
        tir::HostTensor x = RandomTensor(kF32, {n, 5}, 18);
        ExpectOutput(op, {x, idx}, {{"n", n}, {"k", k}}, 0, TakeReference(x, idx, 1, mode),
                     "take mode=" + mode + " " + At(n));
      }
    }
  }
}

TEST(LegalizeManipulateTest, TakeMultiDimIndicesAxis0) {
  LegalizedOp op = LegalizeCall({{"x", "R.Tensor((\"n\", 3), dtype=\"float32\")"},
                                 {"i", "R.Tensor((2, 4), dtype=\"int64\")"}},
                                "R.take(x, i, axis=0)");
  for (int64_t n : kSizes) {
    tir::HostTensor x = RandomTensor(kF32, {n, 3}, 19);
    tir::HostTensor idx = RandomTensor(kI64, {2, 4}, 20, 0, static_cast<double>(n));
    ExpectOutput(op, {x, idx}, {{"n", n}}, 0, TakeReference(x, idx, 0), "take 2-D indices " + At(n));
  }
}

TEST(LegalizeManipulateTest, GatherElements) {
  LegalizedOp op = LegalizeCall({{"d", "R.Tensor((\"n\", 4), dtype=\"float32\")"},
                                 {"i", "R.Tensor((\"n\", 3), dtype=\"int32\")"}},
                                "R.gather_elements(d, i, axis=1)");
  for (int64_t n : kSizes) {
    tir::HostTensor d = RandomTensor(kF32, {n, 4}, 21);
    tir::HostTensor idx = RandomTensor(kI32, {n, 3}, 22, -4, 4);  // negative: from the end
    ExpectOutput(op, {d, idx}, {{"n", n}}, 0, GatherElementsReference(d, idx, 1), "gather_elements " + At(n));
  }
}

TEST(LegalizeManipulateTest, ScatterElementsReductions) {
  for (const std::string reduction : {"update", "add", "mul", "mean", "max", "min"}) {
    LegalizedOp op = LegalizeCall({{"d", "R.Tensor((5, \"n\"), dtype=\"float32\")"},
                                   {"i", "R.Tensor((\"k\", \"n\"), dtype=\"int64\")"},
                                   {"u", "R.Tensor((\"k\", \"n\"), dtype=\"float32\")"}},
                                  "R.scatter_elements(d, i, u, axis=0, reduction=\"" + reduction + "\")");
    for (int64_t n : kSizes) {
      for (int64_t k : {1, 4}) {
        tir::HostTensor d = RandomTensor(kF32, {5, n}, 23);
        tir::HostTensor idx = RandomTensor(kI64, {k, n}, 24, -5, 5);  // duplicates and negatives
        tir::HostTensor u = RandomTensor(kF32, {k, n}, 25);
        std::vector<tir::HostTensor> out = RunLegalizedMulti(op, {d, idx, u}, {{"n", n}, {"k", k}});
        ExpectedTensor expected = ScatterElementsReference(d, idx, u, 0, reduction);
        ExpectTensorNear(out[0], expected.shape, expected.values, 1e-6, 1e-6,
                         "scatter_elements " + reduction + " " + At(n) + " k=" + std::to_string(k));
      }
    }
  }
}

// ---------------------------------------------------------------------------
// layout_transform

TEST(LegalizeManipulateTest, LayoutTransformPadded) {
  LegalizedOp op = LegalizeCall(
      {{"x", "R.Tensor((\"n\", 14), dtype=\"float32\")"}},
      "R.layout_transform(x, index_map=T.index_map(lambda i, j: (j // 4, i, j % 4)), pad_value=R.prim_value(T.float32(-1)))");
  for (int64_t n : kSizes) {
    tir::HostTensor x = RandomTensor(kF32, {n, 14}, 26);
    auto map = [](const Index& i) { return Index{i[1] / 4, i[0], i[1] % 4}; };
    ExpectOutput(op, {x}, {{"n", n}}, 0, LayoutTransformReference(x, {4, n, 4}, map, -1.0),
                 "layout_transform " + At(n));
  }
}

TEST(LegalizeManipulateTest, LayoutTransformTransposeSymbolic) {
  LegalizedOp op = LegalizeCall({{"x", "R.Tensor((\"n\", \"m\"), dtype=\"int32\")"}},
                                "R.layout_transform(x, index_map=T.index_map(lambda a, b: (b, a)))");
  for (int64_t n : kSizes) {
    for (int64_t m : {1, 5}) {
      tir::HostTensor x = RandomTensor(kI32, {n, m}, 27, -100, 100);
      auto map = [](const Index& i) { return Index{i[1], i[0]}; };
      ExpectOutput(op, {x}, {{"n", n}, {"m", m}}, 0, LayoutTransformReference(x, {m, n}, map, 0),
                   "layout_transform transpose " + At(n));
    }
  }
}

// ---------------------------------------------------------------------------
// reshape and permute_dims (the op-infra branch's tests of the same legalizations)

std::string TensorType(const std::string& shape) { return "R.Tensor(" + shape + ", dtype=\"float32\")"; }

// Reshape keeps the row-major order: the output is the input's elements in
// the same flat order.
void ExpectReshaped(const LegalizedOp& op, const std::vector<int64_t>& in_shape, const std::vector<int64_t>& out_shape,
                    const std::map<std::string, int64_t>& sizes) {
  tir::HostTensor x = RandomTensor(kF32, in_shape, 5);
  ExpectTensorNear(RunLegalized(op, {x}, sizes), out_shape, x.ToDoubles(), 0, 0, "reshape");
}

TEST(LegalizeManipulateTest, ReshapeStaticAndSymbolic) {
  LegalizedOp fixed = LegalizeCall({{"x", TensorType("(2, 3, 4)")}}, "R.reshape(x, R.shape([4, -1]))");
  ExpectReshaped(fixed, {2, 3, 4}, {4, 6}, {});
  LegalizedOp merge = LegalizeCall({{"x", TensorType("(\"n\", 3, 4)")}}, "R.reshape(x, R.shape([n * 3, 4]))", {"n"});
  LegalizedOp split = LegalizeCall({{"x", TensorType("(\"n\", 6)")}}, "R.reshape(x, R.shape([n, 2, 3]))", {"n"});
  LegalizedOp flatten = LegalizeCall({{"x", TensorType("(\"n\", \"m\")")}}, "R.reshape(x, R.shape([-1]))");
  for (int64_t n : {1, 3, 8}) {
    ExpectReshaped(merge, {n, 3, 4}, {n * 3, 4}, {{"n", n}});
    ExpectReshaped(split, {n, 6}, {n, 2, 3}, {{"n", n}});
    ExpectReshaped(flatten, {n, 5}, {n * 5}, {{"n", n}, {"m", 5}});
  }
}

TEST(LegalizeManipulateTest, PermuteDimsSwapAndReverse) {
  LegalizedOp swap = LegalizeCall({{"x", TensorType("(\"n\", 3, 4)")}}, "R.permute_dims(x, axes=[2, 0, 1])");
  LegalizedOp reverse = LegalizeCall({{"x", TensorType("(\"n\", 3, 4)")}}, "R.permute_dims(x)");
  for (int64_t n : {1, 2, 7}) {
    tir::HostTensor x = RandomTensor(kF32, {n, 3, 4}, 6);
    ExpectTensorEq(RunLegalized(swap, {x}, {{"n", n}}), PermuteDimsReference(x, {2, 0, 1}), "permute_dims [2, 0, 1]");
    ExpectTensorEq(RunLegalized(reverse, {x}, {{"n", n}}), PermuteDimsReference(x), "permute_dims reversed");
  }
}

}  // namespace
}  // namespace rlx::op_test

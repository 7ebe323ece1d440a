// The ONNX importer: an ONNX model file (ModelProto, read with protobuf) to
// an IRModule whose Relax function `main` computes the graph.
//
//   ir::IRModule mod = rlx::frontend::ImportOnnx("model.onnx");
//
// - `main`'s parameters are the graph inputs that are not initializers, named
//   after the ONNX inputs sanitized to identifiers ("input.1" -> "input_1");
//   initializers become constants, or (keep_params_in_input) extra
//   parameters after the inputs, as TVM's `keep_params_in_input`.
// - A dynamic input dimension becomes a symbolic variable named after its
//   `dim_param` (shared by every input naming it); unnamed ones get fresh
//   names d0, d1, ... `input_shapes` pins dimensions to integers or renames
//   them ("x" -> {"1", "3", "h", "w"}).
// - Shape computations (Shape, Gather, Slice, Concat, arithmetic, ...) on
//   shapes are folded at import time into symbolic shape expressions, so a
//   Reshape fed by them gets a precise shape.
// - Operators are converted per the model's opset (the converter of the
//   largest since-version not above it). Every unsupported operator is
//   reported in one CompileError before anything is converted.
// - A malformed or truncated file is a CompileError naming the file. Tensors
//   stored as external data are read from files relative to the model.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "rlx/graph/expr.h"
#include "rlx/ir/module.h"

namespace rlx::frontend {

struct OnnxImportOptions {
  // Input name -> one entry per dimension: an integer pins the dimension,
  // an identifier names it as a symbolic variable.
  std::map<std::string, std::vector<std::string>> input_shapes;
  // Initializers as extra parameters of `main` (after the inputs) instead of
  // constants; `main` gets the attribute num_input = number of real inputs.
  bool keep_params_in_input = false;
  // Graph inputs bound to known values: they become constants (host values
  // the importer folds, e.g. a Reshape's target) instead of parameters.
  std::map<std::string, graph::TensorDataPtr> input_values;
};

// Imports the model at `path`.
ir::IRModule ImportOnnx(const std::string& path, const OnnxImportOptions& options = {});

// Imports a serialized ModelProto; `name` is used in messages and
// `model_dir` resolves external data files.
ir::IRModule ImportOnnxFromBytes(const std::string& bytes, const std::string& name, const std::string& model_dir,
                                 const OnnxImportOptions& options = {});

// Parses one `--input-shape NAME=1,3,h,w` value into options.input_shapes
// (a CompileError when malformed).
void ParseInputShapeOption(const std::string& text, OnnxImportOptions& options);

// The identifier an ONNX value name becomes ("input.1" -> "input_1",
// "1x" -> "_1x").
std::string SanitizeOnnxName(const std::string& name);

// Reads a file holding one serialized TensorProto (ONNX's test data,
// `input_0.pb`); a CompileError naming the file when it is malformed.
graph::TensorDataPtr ReadOnnxTensorFile(const std::string& path);

}  // namespace rlx::frontend

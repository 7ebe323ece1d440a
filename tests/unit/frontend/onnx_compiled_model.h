// Test helper: an ONNX model built with OnnxModelBuilder, imported, compiled
// once with the default pipeline and run on the VM.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "onnx_test_util.h"
#include "rlx/codegen/vm_codegen.h"
#include "rlx/frontend/onnx.h"
#include "rlx/runtime/vm/vm.h"
#include "rlx/transform/pipeline.h"

namespace rlx::frontend::testing {

class CompiledModel {
 public:
  CompiledModel(const OnnxModelBuilder& builder, const std::string& stem, const OnnxImportOptions& options = {}) {
    ir::IRModule mod = ImportOnnx(builder.Write(stem), options);
    compiled_ = codegen::CompileForVM(transform::DefaultPipeline()(mod));
    vm_ = std::make_unique<runtime::vm::VirtualMachine>(compiled_.exec, compiled_.library);
  }
  // main's result: one tensor, or a tuple for several outputs.
  runtime::Value Run(const std::vector<runtime::NDArray>& inputs) {
    std::vector<runtime::Value> args(inputs.begin(), inputs.end());
    return vm_->Invoke("main", args);
  }
  // The fields of a tuple result.
  std::vector<runtime::NDArray> RunFields(const std::vector<runtime::NDArray>& inputs) {
    runtime::Value result = Run(inputs);  // kept alive while its fields are read
    std::vector<runtime::NDArray> fields;
    for (const runtime::Value& field : result.AsArray()) fields.push_back(field.AsNDArray());
    return fields;
  }

 private:
  codegen::VMCompiled compiled_;
  std::unique_ptr<runtime::vm::VirtualMachine> vm_;
};

}  // namespace rlx::frontend::testing

// A device: a C++ face on DLPack's DLDevice, e.g. cpu:0 or cuda:1.
//
// The runtime allocates on the CPU only for now; other device types exist so
// that tensors from other frameworks and later backends can be described.
#pragma once

#include <string>

#include "rlx/runtime/dlpack.h"

namespace rlx::runtime {

class Device {
 public:
  constexpr Device() : dl_{kDLCPU, 0} {}
  constexpr Device(DLDeviceType type, int id) : dl_{type, id} {}
  constexpr explicit Device(DLDevice dl) : dl_(dl) {}

  static constexpr Device CPU(int id = 0) { return Device(kDLCPU, id); }
  static constexpr Device CUDA(int id = 0) { return Device(kDLCUDA, id); }

  DLDeviceType type() const { return dl_.device_type; }
  int id() const { return dl_.device_id; }
  bool is_cpu() const { return dl_.device_type == kDLCPU; }

  DLDevice dl() const { return dl_; }
  operator DLDevice() const { return dl_; }

  bool operator==(const Device& other) const {
    return dl_.device_type == other.dl_.device_type && dl_.device_id == other.dl_.device_id;
  }
  bool operator!=(const Device& other) const { return !(*this == other); }

  // "cpu:0", "cuda:1", "device(type=12):0" for types without a short name.
  std::string ToString() const;

 private:
  DLDevice dl_;
};

}  // namespace rlx::runtime

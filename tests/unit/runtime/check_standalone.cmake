# runtime_is_standalone: fails if any runtime source or header includes a
# header of another rlx layer, fmt, or a private header outside src/runtime.
#
# The runtime must build into a deployed model without the compiler, so its
# files may include only the standard library, rlx/runtime/* and private
# headers next to them. (Its tests also link only rlx_runtime, which catches
# a missing symbol; this catches an include that happens to be header-only.)
#
# Usage: cmake -DRLX_ROOT=<repo> -P check_standalone.cmake
if(NOT RLX_ROOT)
  message(FATAL_ERROR "pass -DRLX_ROOT=<repository root>")
endif()
file(GLOB_RECURSE files ${RLX_ROOT}/src/runtime/*.cc ${RLX_ROOT}/src/runtime/*.h ${RLX_ROOT}/src/runtime/*.c
                        ${RLX_ROOT}/include/rlx/runtime/*.h)
if(NOT files)
  message(FATAL_ERROR "no runtime files found under ${RLX_ROOT}")
endif()

set(violations "")
foreach(file ${files})
  file(STRINGS ${file} includes REGEX "^[ \t]*#[ \t]*include")
  get_filename_component(dir ${file} DIRECTORY)
  foreach(line ${includes})
    string(REGEX MATCH "[<\"]([^>\"]+)[>\"]" _ "${line}")
    set(target "${CMAKE_MATCH_1}")
    set(bad FALSE)
    if(target MATCHES "^rlx/" AND NOT target MATCHES "^rlx/runtime/")
      set(bad TRUE)
    elseif(target MATCHES "^fmt/")
      set(bad TRUE)
    elseif(line MATCHES "\"" AND NOT target MATCHES "^rlx/runtime/" AND NOT EXISTS ${dir}/${target})
      set(bad TRUE)  # a quoted include found only through another include path
    endif()
    if(bad)
      string(APPEND violations "  ${file}: ${line}\n")
    endif()
  endforeach()
endforeach()

if(violations)
  message(FATAL_ERROR "the runtime must not include compiler or third-party headers:\n${violations}")
endif()
list(LENGTH files count)
message(STATUS "runtime_is_standalone: ${count} files include only the standard library and rlx/runtime")

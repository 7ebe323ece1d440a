# rlx_add_layer(NAME DEPS...) builds src/NAME/*.cc into the library rlx_NAME
# (static; shared with RLX_SHARED_LIBS=ON), public headers in
# include/rlx/NAME. Sources are globbed so that a new file in a layer needs no
# CMake edit.
function(rlx_add_layer name)
  file(GLOB_RECURSE srcs CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/${name}/*.cc)
  set(deps)
  foreach(dep ${ARGN})
    list(APPEND deps rlx_${dep})
  endforeach()
  if(NOT srcs)
    # A layer with no sources yet is a header-only interface library.
    add_library(rlx_${name} INTERFACE)
    target_include_directories(rlx_${name} INTERFACE ${PROJECT_SOURCE_DIR}/include)
    target_link_libraries(rlx_${name} INTERFACE ${deps} fmt::fmt)
    return()
  endif()
  if(RLX_SHARED_LIBS)
    add_library(rlx_${name} SHARED ${srcs})
  else()
    add_library(rlx_${name} STATIC ${srcs})
  endif()
  target_include_directories(rlx_${name} PUBLIC ${PROJECT_SOURCE_DIR}/include
                                         PRIVATE ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(rlx_${name} PUBLIC ${deps} fmt::fmt)
endfunction()

# rlx_add_unit_tests(LAYER [LIBRARY]): every tests/unit/LAYER/NAME_test.cc
# becomes its own gtest binary NAME_test (so one broken test file never blocks
# the others), registered with ctest per test case, linked against LIBRARY
# (default rlx_transform, i.e. the whole compiler).
function(rlx_add_unit_tests layer)
  set(library rlx_transform)
  if(ARGC GREATER 1)
    set(library ${ARGV1})
  endif()
  file(GLOB_RECURSE srcs CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/unit/${layer}/*_test.cc)
  include(GoogleTest)
  foreach(src ${srcs})
    get_filename_component(name ${src} NAME_WE)
    add_executable(${name} ${src})
    target_link_libraries(${name} PRIVATE ${library} GTest::gtest GTest::gtest_main GTest::gmock)
    if(library STREQUAL "rlx_transform" AND TARGET rlx_codegen)
      target_link_libraries(${name} PRIVATE rlx_codegen)
    endif()
    target_compile_definitions(${name} PRIVATE RLX_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
    gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 PROPERTIES LABELS "unit;${layer}")
  endforeach()
endfunction()

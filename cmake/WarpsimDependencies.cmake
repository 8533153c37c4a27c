# Third-party dependencies, all from Debian 12 packages (scripts/install-deps.sh installs them).
find_package(Protobuf 3.21 REQUIRED)
find_package(Threads REQUIRED)

# CLI11, nlohmann-json and fmt: Debian packages here. The GPU machines have none of them: scripts/gpu-headers.sh
# copies the Debian headers into .gpu-deps/include, which travels to the GPU machine and is passed as
# -DCMAKE_INCLUDE_PATH; then CLI11 and nlohmann-json are used header-only, and fmt in its header-only mode.
find_package(CLI11 CONFIG QUIET)
if(NOT TARGET CLI11::CLI11)
  find_path(CLI11_INCLUDE_DIR CLI/CLI.hpp REQUIRED)
  add_library(CLI11::CLI11 INTERFACE IMPORTED)
  target_include_directories(CLI11::CLI11 SYSTEM INTERFACE "${CLI11_INCLUDE_DIR}")
endif()
find_package(nlohmann_json 3.10 QUIET)
if(NOT TARGET nlohmann_json::nlohmann_json)
  find_path(NLOHMANN_JSON_INCLUDE_DIR nlohmann/json.hpp REQUIRED)
  add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
  target_include_directories(nlohmann_json::nlohmann_json SYSTEM INTERFACE "${NLOHMANN_JSON_INCLUDE_DIR}")
endif()
find_package(fmt 9 QUIET)
if(NOT TARGET fmt::fmt)
  find_path(FMT_INCLUDE_DIR fmt/format-inl.h REQUIRED)
  add_library(fmt::fmt INTERFACE IMPORTED)
  target_include_directories(fmt::fmt SYSTEM INTERFACE "${FMT_INCLUDE_DIR}")
  target_compile_definitions(fmt::fmt INTERFACE FMT_HEADER_ONLY)
endif()

# Optional libraries found through pkg-config (ISA-L, zstd, jemalloc): linked where installed, left out elsewhere (the
# GPU machines have none of their .pc files).
find_package(PkgConfig QUIET)
# Links `target` privately to pkg-config module `module` where it is installed, defining the optional 4th argument
# (a WARPSIM_HAVE_... macro) for its sources; sets `found_var` in the caller to whether it did.
function(warpsim_link_if_installed target module found_var)
  set(found OFF)
  if(PKG_CONFIG_FOUND)
    pkg_check_modules(WARPSIM_OPTIONAL_${module} QUIET IMPORTED_TARGET ${module})
    if(WARPSIM_OPTIONAL_${module}_FOUND)
      target_link_libraries(${target} PRIVATE PkgConfig::WARPSIM_OPTIONAL_${module})
      if(ARGC GREATER 3)
        target_compile_definitions(${target} PRIVATE ${ARGV3})
      endif()
      set(found ON)
    endif()
  endif()
  set(${found_var} ${found} PARENT_SCOPE)
endfunction()

if(WARPSIM_WITH_SIMGRID)
  # Debian ships only simgrid.pc (no CMake config): see shared notes/simgrid.md.
  find_package(PkgConfig REQUIRED)
  pkg_check_modules(SimGrid REQUIRED IMPORTED_TARGET simgrid>=3.32)
endif()

set(WARPSIM_CUDA_FOUND OFF)
if(NOT WARPSIM_WITH_CUDA STREQUAL "OFF")
  find_package(CUDAToolkit QUIET)
  if(CUDAToolkit_FOUND)
    set(WARPSIM_CUDA_FOUND ON)
  elseif(WARPSIM_WITH_CUDA STREQUAL "ON")
    message(FATAL_ERROR "WARPSIM_WITH_CUDA=ON but no CUDA toolkit was found")
  endif()
endif()

if(WARPSIM_BUILD_TESTS)
  find_package(GTest REQUIRED)
  find_package(benchmark QUIET)
endif()

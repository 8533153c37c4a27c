# Third-party dependencies, all from Debian 12 packages (scripts/install-deps.sh installs them).
find_package(Protobuf 3.21 REQUIRED)
find_package(Threads REQUIRED)

# Header-only or small libraries the CLI uses. On a GPU machine without them, point CMAKE_PREFIX_PATH or
# CMAKE_INCLUDE_PATH at copies of the Debian headers.
find_package(CLI11 CONFIG QUIET)
if(NOT TARGET CLI11::CLI11)
  find_path(CLI11_INCLUDE_DIR CLI/CLI.hpp REQUIRED)
  add_library(CLI11::CLI11 INTERFACE IMPORTED)
  target_include_directories(CLI11::CLI11 INTERFACE "${CLI11_INCLUDE_DIR}")
endif()
find_package(nlohmann_json 3.10 REQUIRED)
find_package(fmt 9 REQUIRED)

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

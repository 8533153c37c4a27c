# `cmake --install BUILD --prefix PREFIX` (and CPack's packages): PREFIX/bin/warpsim, PREFIX/lib/libwarpsim_tracer.so
# where `warpsim record` looks for it (../lib beside bin/), and PREFIX/share/warpsim/ with the platforms (found beside
# bin/: sim/platform/platform.h), the trace and platform schemas and the JSON output schemas. The build tree can then
# go: tests/install/installed_warpsim_test.sh checks it.
include(GNUInstallDirs)
set(WARPSIM_SHARE_DIR "${CMAKE_INSTALL_DATADIR}/warpsim")
install(TARGETS warpsim RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
if(TARGET warpsim_tracer)
  # The tracer keeps its path to CUPTI (CUDA's lib64 is on no default search path).
  set_target_properties(warpsim_tracer PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)
  install(TARGETS warpsim_tracer LIBRARY DESTINATION lib)
endif()
install(DIRECTORY platforms/gpus platforms/nodes DESTINATION "${WARPSIM_SHARE_DIR}/platforms"
        FILES_MATCHING PATTERN "*.textproto")
install(FILES platforms/README.md DESTINATION "${WARPSIM_SHARE_DIR}/platforms")
install(FILES proto/trace.proto proto/platform.proto DESTINATION "${WARPSIM_SHARE_DIR}/proto")
install(DIRECTORY docs/schemas/ DESTINATION "${WARPSIM_SHARE_DIR}/schemas")
# The Python reader and its generated messages: PYTHONPATH=PREFIX/share/warpsim/python.
install(DIRECTORY python/warpsim_trace DESTINATION "${WARPSIM_SHARE_DIR}/python" FILES_MATCHING PATTERN "*.py")
install(FILES "${PROJECT_BINARY_DIR}/python/trace_pb2.py" DESTINATION "${WARPSIM_SHARE_DIR}/python")

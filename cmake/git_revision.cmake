# Run at every build (cmake -P): writes OUTPUT, a header with the source tree's git revision, only when it changed, so
# `warpsim --version` names the commit it was built from without rebuilding anything else. "unknown" outside git.
execute_process(COMMAND git -C "${SOURCE_DIR}" describe --always --dirty --abbrev=12
                OUTPUT_VARIABLE revision OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE failed)
if(failed OR revision STREQUAL "")
  set(revision "unknown")
endif()
set(content "#pragma once\n// Generated at build time by cmake/git_revision.cmake.\nnamespace warpsim {\ninline constexpr const char* kGitRevision = \"${revision}\";\n}\n")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
endif()
if(NOT old STREQUAL content)
  file(WRITE "${OUTPUT}" "${content}")
endif()

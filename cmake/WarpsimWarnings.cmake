# Strict warnings for the project's own targets (not for generated protobuf code).
function(warpsim_set_warnings target)
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion -Wnon-virtual-dtor -Wold-style-cast
    -Wcast-align -Woverloaded-virtual -Wdouble-promotion -Wformat=2 -Wimplicit-fallthrough)
  if(WARPSIM_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

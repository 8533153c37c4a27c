#pragma once
// CUPTI's parameter structs for the probes that call CUPTI directly (probe_pm_sampling, probe_sass_metrics): zeroed,
// with their size set (the size tells CUPTI which fields this build knows).
#include <cstddef>

namespace ws {

template <typename Params>
Params make_cupti_params(std::size_t struct_size) {
  Params p{};
  p.structSize = struct_size;
  return p;
}

}  // namespace ws

#define CUPTI_PARAMS(Type) ::ws::make_cupti_params<Type>(Type##_STRUCT_SIZE)

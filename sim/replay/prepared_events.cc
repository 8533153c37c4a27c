#include "prepared_events.h"

#include <utility>

namespace warpsim::replay {

PreparedEvents::Fill prepare_each(ApiOrderReader& reader, Prepare prepare) {
  return [&reader, prepare = std::move(prepare)](PreparedEvent& item) {
    if (!reader.next(item.event, item.source_index)) return false;
    item.prepared.reset();
    if (is_operation(item.event)) item.prepared = prepare(item.event);
    return true;
  };
}

}  // namespace warpsim::replay

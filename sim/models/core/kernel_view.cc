#include "kernel_view.h"

namespace warpsim::models {

KernelView KernelView::of(const KernelLaunch& launch) {
  KernelLaunch copy = launch;
  // The predictive rule: what a model cannot see, it cannot fit to.
  copy.clear_start_ns();
  copy.clear_end_ns();
  return KernelView(std::move(copy));
}

}  // namespace warpsim::models

#pragma once
// A calibrated GPU as a file like the shipped ones: protobuf text format, one field a line (a repeated message's
// elements one a line, repeated numbers as a list), and beside each value the comment that says where it comes from.
#include <string>

#include "calibrated_gpu.h"

namespace warpsim::calibrate {

/// The file's text: the header lines as comments, then every set field of the spec.
std::string gpu_file_text(const CalibratedGpu& gpu);

}  // namespace warpsim::calibrate

// backprop: training steps of a two-layer perceptron, with the structure of Rodinia's backprop benchmark (written
// anew, not copied): the big input->hidden layer runs on the GPU in two kernels, the tiny hidden->output layer and
// the error terms run on the host between them. One of the three validation programs of the analytical wave model
// (seed 001, Kleimenov & Popova 2021). See README.md.
//
// Network: `--input N` input units plus a bias unit (index 0, always 1), 16 hidden units plus a bias unit, 1 output.
// Weights of a layer are stored row-major as (units_below + 1) x (units_above + 1) with row 0 / column 0 for the
// bias units, as Rodinia stores them; column 0 of the input->hidden matrix is therefore never used.

#include "device_buffer.h"
#include "workload.h"

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr const char* kWorkload = "backprop";
constexpr int kTile = 16;               // input units per thread block (Rodinia's HEIGHT), also the block's side
constexpr int kHidden = 16;             // hidden units (Rodinia's default)
constexpr int kRowWidth = kHidden + 1;  // one weight row: a column per hidden unit plus the unused bias column
constexpr float kEta = 0.3f;            // learning rate (Rodinia's ETA)
constexpr float kMomentum = 0.3f;       // momentum (Rodinia's MOMENTUM)
constexpr float kTarget = 0.1f;         // target of the single output unit, as in Rodinia
static_assert(kHidden == kTile, "threadIdx.x indexes the hidden units, so a block is kTile x kHidden threads");

using LayerVector = std::array<float, kRowWidth>;  // per hidden unit; element 0 is the bias unit (or unused)

}  // namespace

// The kernels live at global scope so that their (demangled) names in a trace are exactly the timing labels.

/// Each 16x16 block takes 16 consecutive input units and the matching 16 rows x 16 hidden columns of the weights,
/// multiplies, and sums each column in shared memory: partial_sums[block][j] = sum of its rows of w[i][j+1] * x[i].
/// The host adds the blocks' partial sums (Rodinia's split). Unlike Rodinia, the products are not written back over
/// the weights: that side effect corrupts the weights the adjust kernel then updates.
__global__ void bpnn_layerforward(const float* __restrict__ input, const float* __restrict__ weights,
                                  float* __restrict__ partial_sums) {
  __shared__ float input_tile[kTile];
  __shared__ float products[kTile][kHidden];
  const int tx = static_cast<int>(threadIdx.x);  // hidden unit - 1
  const int ty = static_cast<int>(threadIdx.y);  // input unit within the tile
  const int block = static_cast<int>(blockIdx.x);
  const int row = kTile * block + ty + 1;  // + 1 skips the bias unit, whose weight row the host adds

  // One thread per row loads the input unit once for the 16 threads that use it.
  if (tx == 0) input_tile[ty] = input[row];
  __syncthreads();
  products[ty][tx] = weights[row * kRowWidth + tx + 1] * input_tile[ty];
  __syncthreads();

  // Tree reduction over the 16 rows of each column (log2(16) = 4 steps, a barrier after each as in Rodinia).
#pragma unroll
  for (int stride = kTile / 2; stride > 0; stride /= 2) {
    if (ty < stride) products[ty][tx] += products[ty + stride][tx];
    __syncthreads();
  }
  if (ty == 0) partial_sums[block * kHidden + tx] = products[0][tx];
}

/// One thread per input->hidden weight: gradient step plus momentum, remembering the change for the next step's
/// momentum. Block 0's first thread row also updates the bias row (input unit 0), which has no block of its own.
__global__ void bpnn_adjust_weights(const float* __restrict__ hidden_delta, const float* __restrict__ input,
                                    float* __restrict__ weights, float* __restrict__ previous_change) {
  const int tx = static_cast<int>(threadIdx.x);
  const int ty = static_cast<int>(threadIdx.y);
  const int block = static_cast<int>(blockIdx.x);
  const int row = kTile * block + ty + 1;
  const int column = tx + 1;
  const int index = row * kRowWidth + column;

  const float change = kEta * hidden_delta[column] * input[row] + kMomentum * previous_change[index];
  weights[index] += change;
  previous_change[index] = change;

  if (block == 0 && ty == 0) {
    const float bias_change = kEta * hidden_delta[column] * input[0] + kMomentum * previous_change[column];
    weights[column] += bias_change;
    previous_change[column] = bias_change;
  }
}

namespace {

using ws::DeviceBuffer;

/// The initial state of the network, shared by the GPU run and the CPU reference.
struct Problem {
  long inputs = 0;
  int repeats = 0;
  std::vector<float> input;           // inputs + 1 units, [0] = 1 (bias)
  std::vector<float> input_weights;   // (inputs + 1) x kRowWidth
  LayerVector output_weights{};       // hidden -> output, [0] from the hidden bias unit
};

/// What is compared: the hidden units' net inputs of every repetition, and the final input->hidden weights and
/// last changes (the changes are small next to the weights, so they are what shows an error in the update).
struct Result {
  std::vector<float> hidden_sums;  // repeats x kHidden
  std::vector<float> weights;
  std::vector<float> changes;
};

/// Inputs scaled by 1/sqrt(N) keep each hidden unit's net input of order 1 for any N, so the sigmoids do not
/// saturate (Rodinia's unscaled [0,1) data drives them to 0 or 1, the deltas vanish and a check would test nothing).
Problem make_problem(long inputs, int repeats) {
  Problem p;
  p.inputs = inputs;
  p.repeats = repeats;
  p.input.resize(static_cast<std::size_t>(inputs) + 1);
  ws::fill_random(p.input, 7u);
  const float scale = 1.0f / std::sqrt(static_cast<float>(inputs));
  for (float& x : p.input) x *= scale;
  p.input[0] = 1.0f;
  p.input_weights.resize(p.input.size() * kRowWidth);
  ws::fill_random(p.input_weights, 1u);
  std::vector<float> output_weights(kRowWidth);
  ws::fill_random(output_weights, 3u);
  std::copy(output_weights.begin(), output_weights.end(), p.output_weights.begin());
  return p;
}

template <typename Real>
Real squash(Real x) {
  return Real(1) / (Real(1) + std::exp(-x));
}

/// The host's part of a training step (Rodinia's CPU steps), in float for the GPU run and in double for the
/// reference: sigmoid of the hidden sums, the output unit, its error, the hidden deltas (from the output weights
/// before they change, as Rodinia orders it) and the output layer's weight update. Returns the hidden deltas.
template <typename Real>
std::array<Real, kRowWidth> host_step(const std::array<Real, kRowWidth>& hidden_sums,
                                      std::array<Real, kRowWidth>& output_weights,
                                      std::array<Real, kRowWidth>& output_changes) {
  std::array<Real, kRowWidth> hidden{};
  hidden[0] = Real(1);
  for (std::size_t j = 1; j < hidden.size(); ++j) hidden[j] = squash(hidden_sums[j]);

  Real output_sum = 0;
  for (std::size_t j = 0; j < hidden.size(); ++j) output_sum += output_weights[j] * hidden[j];
  const Real output = squash(output_sum);
  const Real output_delta = output * (Real(1) - output) * (Real(kTarget) - output);

  std::array<Real, kRowWidth> hidden_delta{};
  for (std::size_t j = 1; j < hidden.size(); ++j)
    hidden_delta[j] = hidden[j] * (Real(1) - hidden[j]) * output_delta * output_weights[j];

  for (std::size_t j = 0; j < hidden.size(); ++j) {
    const Real change = Real(kEta) * output_delta * hidden[j] + Real(kMomentum) * output_changes[j];
    output_weights[j] += change;
    output_changes[j] = change;
  }
  return hidden_delta;
}

/// Adds the blocks' partial sums (in double: the check should see the GPU's rounding, not a 65536-term float sum
/// on the host) and the bias row's contribution.
std::array<float, kRowWidth> hidden_sums_from_partials(const std::vector<float>& partial_sums,
                                                       const LayerVector& bias_row, float bias_input) {
  std::array<double, kRowWidth> sums{};
  for (std::size_t b = 0; b < partial_sums.size(); b += kHidden)
    for (std::size_t j = 0; j < kHidden; ++j) sums[j + 1] += static_cast<double>(partial_sums[b + j]);
  std::array<float, kRowWidth> result{};
  for (std::size_t j = 1; j < sums.size(); ++j)
    result[j] = static_cast<float>(sums[j] + static_cast<double>(bias_row[j]) * static_cast<double>(bias_input));
  return result;
}

/// Loads each kernel now: with lazy module loading (the default since CUDA 12.2) the first launch would otherwise
/// load it, and that host-side delay would fall between the timer's events.
void load_kernels() {
  cudaFuncAttributes attributes{};
  WS_CHECK(cudaFuncGetAttributes(&attributes, bpnn_layerforward));
  WS_CHECK(cudaFuncGetAttributes(&attributes, bpnn_adjust_weights));
}

Result run_gpu(const Problem& p) {
  const std::size_t blocks = static_cast<std::size_t>(p.inputs / kTile);
  DeviceBuffer<float> input(p.input.size());
  DeviceBuffer<float> weights(p.input_weights.size());
  DeviceBuffer<float> changes(p.input_weights.size());
  DeviceBuffer<float> partial_sums(blocks * kHidden);
  DeviceBuffer<float> hidden_delta(kRowWidth);
  input.upload(p.input);
  weights.upload(p.input_weights);
  changes.zero();  // no previous change before the first step (Rodinia zeroes the previous weights)
  load_kernels();

  const dim3 grid(static_cast<unsigned>(blocks));
  const dim3 block(kHidden, kTile);
  ws::KernelTimer timer(kWorkload);
  Result result;
  std::vector<float> partials(blocks * kHidden);
  LayerVector output_weights = p.output_weights;
  LayerVector output_changes{};
  for (int rep = 0; rep < p.repeats; ++rep) {
    timer.start();
    bpnn_layerforward<<<grid, block>>>(input.get(), weights.get(), partial_sums.get());
    timer.stop("bpnn_layerforward");

    partial_sums.download(partials);
    LayerVector bias_row{};
    weights.download(bias_row.data(), bias_row.size());  // row 0: the bias unit's weights, changed by each adjust
    const LayerVector sums = hidden_sums_from_partials(partials, bias_row, p.input[0]);
    result.hidden_sums.insert(result.hidden_sums.end(), sums.begin() + 1, sums.end());
    const LayerVector delta = host_step(sums, output_weights, output_changes);
    hidden_delta.upload(delta.data(), delta.size());

    timer.start();
    bpnn_adjust_weights<<<grid, block>>>(hidden_delta.get(), input.get(), weights.get(), changes.get());
    timer.stop("bpnn_adjust_weights");
  }
  result.weights.resize(p.input_weights.size());
  result.changes.resize(p.input_weights.size());
  weights.download(result.weights);
  changes.download(result.changes);
  return result;
}

std::vector<float> to_float(const std::vector<double>& values) {
  std::vector<float> result(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) result[i] = static_cast<float>(values[i]);
  return result;
}

/// The same training steps entirely on the CPU in double precision, each sum taken over all rows at once.
Result run_reference(const Problem& p) {
  const std::vector<double> input(p.input.begin(), p.input.end());
  std::vector<double> weights(p.input_weights.begin(), p.input_weights.end());
  std::vector<double> changes(weights.size(), 0.0);
  std::array<double, kRowWidth> output_weights{};
  std::copy(p.output_weights.begin(), p.output_weights.end(), output_weights.begin());
  std::array<double, kRowWidth> output_changes{};
  Result result;
  for (int rep = 0; rep < p.repeats; ++rep) {
    std::array<double, kRowWidth> sums{};
    for (std::size_t i = 0; i < input.size(); ++i)
      for (std::size_t j = 1; j < kRowWidth; ++j) sums[j] += weights[i * kRowWidth + j] * input[i];
    for (std::size_t j = 1; j < kRowWidth; ++j) result.hidden_sums.push_back(static_cast<float>(sums[j]));

    const std::array<double, kRowWidth> delta = host_step(sums, output_weights, output_changes);
    for (std::size_t i = 0; i < input.size(); ++i) {
      for (std::size_t j = 1; j < kRowWidth; ++j) {
        const std::size_t index = i * kRowWidth + j;
        const double change =
            static_cast<double>(kEta) * delta[j] * input[i] + static_cast<double>(kMomentum) * changes[index];
        weights[index] += change;
        changes[index] = change;
      }
    }
  }
  result.weights = to_float(weights);
  result.changes = to_float(changes);
  return result;
}

float max_abs(const std::vector<float>& values) {
  float largest = 0.0f;
  for (float v : values) largest = std::fmax(largest, std::fabs(v));
  return largest;
}

/// Compares all elements with relative tolerance 1e-3 plus an absolute floor scaled to the array's magnitude
/// (weights are O(1), most changes O(1e-6)); appends a short verdict to `detail`. Returns true when all match.
bool compare(const char* what, const std::vector<float>& got, const std::vector<float>& want, float abs_fraction,
             std::string& detail) {
  const long bad = ws::first_mismatch(got, want, 1e-3f, abs_fraction * max_abs(want));
  char text[160];
  if (bad < 0) {
    std::snprintf(text, sizeof text, " %s=ok(%zu)", what, want.size());
  } else {
    const std::size_t i = static_cast<std::size_t>(bad);
    std::snprintf(text, sizeof text, " %s=MISMATCH[%ld]:got=%.9g,want=%.9g", what, bad, static_cast<double>(got[i]),
                  static_cast<double>(want[i]));
  }
  detail += text;
  return bad < 0;
}

/// (N + 1) x 17 weights must be indexable with the kernels' int arithmetic, as in Rodinia.
bool valid_size(long inputs) {
  return inputs > 0 && inputs % kTile == 0 && inputs < static_cast<long>(INT_MAX / kRowWidth) - 1;
}

}  // namespace

int main(int argc, char** argv) {
  const long inputs = ws::arg_long(argc, argv, "input", 1L << 20);
  const long repeats = ws::arg_long(argc, argv, "repeat", 3);
  if (!valid_size(inputs) || repeats < 1 || repeats > 1000) {
    std::fprintf(stderr, "usage: %s [--input N (multiple of %d, default 1048576)] [--repeat R (default 3)]\n", argv[0],
                 kTile);
    return 2;
  }
  const Problem problem = make_problem(inputs, static_cast<int>(repeats));
  const Result gpu = run_gpu(problem);
  const Result reference = run_reference(problem);

  std::string detail = "inputs=" + std::to_string(inputs) + " hidden=" + std::to_string(kHidden) +
                       " repeats=" + std::to_string(repeats);
  bool ok = compare("hidden_sums", gpu.hidden_sums, reference.hidden_sums, 1e-4f, detail);
  ok = compare("weights", gpu.weights, reference.weights, 1e-6f, detail) && ok;
  // The changes' floor is tight: most are ~1e-6 while the bias row's reach ~1e-2 (its input is 1, not ~1e-3).
  ok = compare("changes", gpu.changes, reference.changes, 1e-7f, detail) && ok;
  return ws::report_check(kWorkload, ok, detail);
}

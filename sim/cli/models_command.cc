#include "models_command.h"

#include <iostream>

#include "registry.h"

namespace warpsim::cli {

void add_models_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand("models", "List the SM timing models (simulate --model NAME)");
  command->callback([] {
    for (const auto& model : models::known_models()) {
      std::cout << model.name << '\t' << model.description;
      if (model.name == models::kDefaultModel) std::cout << " (default: lowest error on the blind validation half)";
      std::cout << '\n';
    }
  });
}

}  // namespace warpsim::cli

#pragma once
/// The `firn` command line (CLI11): run, info, bench, and their exit codes (see README). Libraries that depend on
/// firn_app (the viewer) add their subcommands through CommandFactory, so dependencies stay one-way.
#include <functional>
#include <vector>

namespace CLI {
class App;
}

namespace firn::app {

/// A subcommand added from outside firn_app: the parsed subcommand and what runs it.
struct Command {
  CLI::App* sub = nullptr;    ///< the subcommand (selected when `*sub` is true after parsing)
  std::function<int()> run;   ///< runs it after parsing; returns the exit code, may throw as run_scene
};

/// Adds one subcommand (with its options bound to state the factory owns) to the top-level parser.
using CommandFactory = std::function<Command(CLI::App& app)>;

/// Parses the command line and runs the chosen subcommand: run, bench, info, plus those of `extra` (main.cpp
/// passes the viewer's `view`). Returns the process exit code (firn::ExitCode: 0 ok, 1 other failure, 2 bad
/// input, 3 numerical failure); firn::InputError and firn::NumericalError thrown by a subcommand map to 2 and 3.
int main(int argc, char** argv, const std::vector<CommandFactory>& extra = {});

}  // namespace firn::app

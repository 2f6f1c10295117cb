#pragma once
/// The `firn` command line (CLI11): run, info, bench, and their exit codes (see README).

namespace firn::app {

/// Parses the command line and runs the chosen subcommand. Returns the process exit code
/// (firn::ExitCode: 0 ok, 1 other failure, 2 bad input, 3 numerical failure).
int main(int argc, char** argv);

}  // namespace firn::app

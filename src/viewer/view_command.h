#pragma once
/// The `view` subcommand, added to the firn command line by main.cpp (firn_viewer depends on firn_app, not the
/// other way round).
#include "app/cli.h"

namespace firn::viewer {

/// Adds `firn view [SCENE] [--frames N --screenshot PNG --record DIR --record-ui --hide-ui --width W --height H
/// --substeps K --out DIR]` to `app` and returns it with the function that runs it (run_view).
app::Command add_view_command(CLI::App& app);

}  // namespace firn::viewer

// firn: the command-line entry point. The subcommands live in firn_app (run, bench, info) and firn_viewer (view,
// registered here so that firn_app never depends on the viewer).
#include "app/cli.h"
#include "viewer/view_command.h"

int main(int argc, char** argv) { return firn::app::main(argc, argv, {firn::viewer::add_view_command}); }

// firn: the command-line entry point. Everything lives in firn_app (src/app) so tests can call it too.
#include "app/cli.h"

int main(int argc, char** argv) { return firn::app::main(argc, argv); }

#pragma once
/// The one include for OpenGL in firn: GLEW's declarations of the GL 4.3 core entry points.
#include <GL/glew.h>

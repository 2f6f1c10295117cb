#include "viewer/keys.h"

#include <GLFW/glfw3.h>

#include <array>

namespace firn::viewer {
namespace {

const std::array<KeyBinding, 10> kKeys{{
    {GLFW_KEY_SPACE, "Space", Action::kPlayPause, "play / pause"},
    {GLFW_KEY_N, "N", Action::kStep, "advance one frame (1 / fps simulated seconds) and pause"},
    {GLFW_KEY_R, "R", Action::kReset, "reset: re-seed the scene with the edited materials"},
    {GLFW_KEY_P, "P", Action::kScreenshot, "screenshot of the window (PNG)"},
    {GLFW_KEY_V, "V", Action::kRecord, "start / stop recording frames"},
    {GLFW_KEY_H, "H", Action::kHelp, "show / hide this help"},
    {GLFW_KEY_U, "U", Action::kPanels, "show / hide the panels"},
    {GLFW_KEY_F, "F", Action::kFrameAll, "frame the whole simulation domain"},
    {GLFW_KEY_W, "W", Action::kWaterMode, "water: surface / particles"},
    {GLFW_KEY_ESCAPE, "Esc", Action::kQuit, "quit"},
}};

const std::array<MouseBinding, 4> kMouse{{
    {"left drag", "orbit around the target"},
    {"right drag", "pan"},
    {"middle drag", "pan"},
    {"scroll", "zoom towards / away from the target"},
}};

}  // namespace

std::span<const KeyBinding> key_bindings() { return kKeys; }
std::span<const MouseBinding> mouse_bindings() { return kMouse; }

}  // namespace firn::viewer

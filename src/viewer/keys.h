#pragma once
/// The viewer's keyboard and mouse bindings: one table that both the input handling and the help overlay read,
/// so the help lists every key there is.
#include <span>

namespace firn::viewer {

/// What a key does.
enum class Action { kPlayPause, kStep, kReset, kScreenshot, kRecord, kHelp, kPanels, kFrameAll, kWaterMode, kQuit };

/// One key: its GLFW key code, its name and what it does.
struct KeyBinding {
  int key;                  ///< GLFW_KEY_* code
  const char* name;         ///< e.g. "Space"
  Action action;
  const char* description;  ///< e.g. "play / pause"
};

/// Every key binding, in help order.
std::span<const KeyBinding> key_bindings();

/// One mouse control for the help overlay.
struct MouseBinding {
  const char* gesture;      ///< e.g. "left drag"
  const char* description;  ///< e.g. "orbit around the target"
};

/// Every mouse control, in help order.
std::span<const MouseBinding> mouse_bindings();

}  // namespace firn::viewer

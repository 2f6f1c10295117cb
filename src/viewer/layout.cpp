#include "viewer/layout.h"

#include <algorithm>

namespace firn::viewer {

float sidebar_width(float width) {
  return std::min(std::clamp(0.3f * width, 300.0f, 440.0f), 0.5f * width);
}

ViewerLayout viewer_layout(float width, float height, bool sidebar_shown, float banner_height) {
  ViewerLayout l;
  if (width <= 0.0f || height <= 0.0f) return l;
  l.window = {0.0f, 0.0f, width, height};
  const float bar = sidebar_shown ? sidebar_width(width) : 0.0f;
  l.sidebar = {width - bar, 0.0f, bar, height};
  l.scene = {0.0f, 0.0f, width - bar, height};
  l.banner = {0.0f, 0.0f, l.scene.width, std::clamp(banner_height, 0.0f, height)};
  return l;
}

}  // namespace firn::viewer

// The viewer's layout: the side bar, the scene area and the banner partition the window at any size, and the real
// Dear ImGui windows (built by draw_ui in a headless ImGui context over a real simulation) stay inside the window,
// never overlap, and show their content without cutting it off, with every section open.
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <string>
#include <tuple>
#include <vector>

#include "app/simulation.h"
#include "scene/load.h"
#include "support/gl_context.h"
#include "viewer/layout.h"
#include "viewer/panels.h"
#include "viewer/viewer_test_util.h"

namespace firn::viewer::test {
namespace {

TEST(ViewerLayout, SideBarAndSceneSplitTheWindow) {
  for (const auto& [w, h] : {std::pair{1280.0f, 720.0f}, {960.0f, 540.0f}, {641.0f, 397.0f}, {3841.0f, 2161.0f}}) {
    const ViewerLayout l = viewer_layout(w, h, true, 37.0f);
    EXPECT_TRUE(l.window.contains(l.sidebar)) << w << "x" << h;
    EXPECT_TRUE(l.window.contains(l.scene));
    EXPECT_FALSE(l.scene.overlaps(l.sidebar));
    EXPECT_FLOAT_EQ(l.scene.width + l.sidebar.width, w) << "nothing between or beside them";
    EXPECT_FLOAT_EQ(l.sidebar.right(), w) << "anchored to the right edge";
    EXPECT_FLOAT_EQ(l.sidebar.height, h);
    EXPECT_GE(l.sidebar.width, std::min(300.0f, 0.5f * w));
    EXPECT_GE(l.scene.width, 0.5f * w) << "the scene keeps at least half the window";
    EXPECT_TRUE(l.scene.contains(l.banner));
    EXPECT_FLOAT_EQ(l.banner.height, 37.0f);
  }
  const ViewerLayout hidden = viewer_layout(960.0f, 540.0f, false, 0.0f);
  EXPECT_FLOAT_EQ(hidden.scene.width, 960.0f) << "hidden panels give the scene the whole window";
  EXPECT_FLOAT_EQ(hidden.sidebar.width, 0.0f);
  EXPECT_FLOAT_EQ(viewer_layout(0.0f, 540.0f, true, 0.0f).scene.width, 0.0f) << "minimised window";
}

/// A Dear ImGui context with no platform or renderer backend: draw_ui builds its windows, nothing is drawn.
class HeadlessImGui {
 public:
  HeadlessImGui() {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);  // builds the font atlas NewFrame needs
  }
  ~HeadlessImGui() { ImGui::DestroyContext(); }

  /// One UI frame of a `width` x `height` window.
  void frame(float width, float height, PanelContext& c) {
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(width, height);
    io.DeltaTime = 1.0f / 10.0f;
    ImGui::NewFrame();
    draw_ui(c);
    ImGui::Render();
  }
};

struct ShownWindow {
  std::string name;
  Rect rect;
  float content_width, inner_width;  ///< [pixels]: the widest item and the room the window gives it
};

/// The top-level windows ImGui showed in the last frame (no tooltips, popups or child windows).
std::vector<ShownWindow> shown_windows() {
  std::vector<ShownWindow> out;
  for (ImGuiWindow* w : GImGui->Windows) {
    if (!w->Active || w->Hidden || (w->Flags & (ImGuiWindowFlags_ChildWindow | ImGuiWindowFlags_Tooltip |
                                                   ImGuiWindowFlags_Popup)))
      continue;
    if (std::string(w->Name).rfind("Debug##", 0) == 0) continue;  // ImGui's implicit fallback window
    out.push_back({w->Name, Rect{w->Pos.x, w->Pos.y, w->Size.x, w->Size.y}, w->ContentSize.x,
                   w->ContentRegionRect.GetWidth()});
  }
  return out;
}

constexpr const char* kSections[] = {"Simulation", "Material", "Colliders", "Render", "Scene"};

/// Opens (or closes) the side bar's collapsing header `section`, as a user clicking it would.
void set_section_open(const char* section, bool open) {
  ImGuiWindow* bar = ImGui::FindWindowByName("firn");
  ASSERT_NE(bar, nullptr);
  bar->StateStorage.SetInt(bar->GetID(section), open ? 1 : 0);
}

class ViewerPanels : public ::testing::TestWithParam<std::tuple<float, float, const char*>> {
 protected:
  void SetUp() override { firn::test::gl_context(); }
};

TEST_P(ViewerPanels, InsideTheWindowWithoutOverlapOrClipping) {
  const auto [width, height, scene_file] = GetParam();
  app::Simulation sim(scene::load_scene(std::string(FIRN_TEST_DIR) + "/data/" + scene_file));
  ViewerSettings settings = settings_from(sim);
  UiState ui;
  Recorder recorder;
  const std::vector<std::filesystem::path> files{std::string(FIRN_TEST_DIR) + "/data/" + scene_file};
  // A watchdog message long enough to wrap over several lines.
  ui.sim_error = "numerical failure at substep 1234: a particle speed of 3.1e+04 m/s exceeds what the step allows "
                 "(CFL number 7.2 > 1); the frame was not written.";
  HeadlessImGui imgui;
  PanelContext c{sim, settings, ui, recorder, files, files[0], viewer_layout(width, height, true, 0.0f)};
  imgui.frame(width, height, c);
  // Each section alone, then all open: no content wider than the bar (a row that does not fit is cut off).
  for (const char* open : kSections) {
    for (const char* section : kSections) set_section_open(section, section == open);
    for (int i = 0; i < 3; ++i) imgui.frame(width, height, c);  // auto-sized content settles over a few frames
    for (const ShownWindow& w : shown_windows())
      EXPECT_LE(w.content_width, w.inner_width + 0.5f) << w.name << " with section " << open << " open";
  }
  for (const char* closed : kSections) {
    for (const char* section : kSections) set_section_open(section, section != closed);
    for (int i = 0; i < 3; ++i) imgui.frame(width, height, c);
    for (const ShownWindow& w : shown_windows())
      EXPECT_LE(w.content_width, w.inner_width + 0.5f) << w.name << " with all but section " << closed << " open";
  }
  for (const char* section : kSections) set_section_open(section, true);
  for (int i = 0; i < 3; ++i) imgui.frame(width, height, c);

  const std::vector<ShownWindow> windows = shown_windows();
  ASSERT_EQ(windows.size(), 2u) << "the side bar and the banner";
  const Rect window{0.0f, 0.0f, width, height};
  for (const ShownWindow& w : windows) {
    EXPECT_TRUE(window.contains(w.rect)) << w.name << " at " << w.rect.x << "," << w.rect.y << " size "
                                         << w.rect.width << "x" << w.rect.height;
    EXPECT_LE(w.content_width, w.inner_width + 0.5f) << w.name << ": content wider than the window is cut off";
  }
  EXPECT_FALSE(windows[0].rect.overlaps(windows[1].rect));
  EXPECT_FALSE(banner_message(ui).empty());
  ui.dismissed_banner = banner_message(ui);
  imgui.frame(width, height, c);
  EXPECT_EQ(shown_windows().size(), 1u) << "a dismissed banner goes away";
}

// Snow (materials, colliders, pass timings) and hard-contact bodies (the grains' table) at both window sizes; water,
// soft grains and snow-and-water: their figure tables and live parameters (Material section) fit too.
INSTANTIATE_TEST_SUITE_P(WindowSizes, ViewerPanels,
                         ::testing::Values(std::tuple{1280.0f, 720.0f, "tiny-snowball.json"},
                                           std::tuple{960.0f, 540.0f, "tiny-snowball.json"},
                                           std::tuple{1280.0f, 720.0f, "tiny-bodies.json"},
                                           std::tuple{960.0f, 540.0f, "tiny-bodies.json"},
                                           std::tuple{960.0f, 540.0f, "tiny-water.json"},
                                           std::tuple{960.0f, 540.0f, "tiny-grains.json"},
                                           std::tuple{1280.0f, 720.0f, "tiny-snow-and-water.json"}));

}  // namespace
}  // namespace firn::viewer::test

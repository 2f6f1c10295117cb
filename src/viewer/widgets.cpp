#include "viewer/widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cstdarg>

namespace firn::viewer {
namespace {

constexpr float kInputWidth = 150.0f;  ///< [pixels]

// Keyed by the widget's ImGui id, which includes the id stack (material / collider index).
std::string key(const char* label) { return std::to_string(ImGui::GetID(label)); }

void record(UiState& ui, const char* label, const std::string& refusal) {
  if (refusal.empty()) ui.refusals.erase(key(label));
  else ui.refusals[key(label)] = refusal;
}

}  // namespace

void error_text(const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.42f, 0.38f, 1.0f));
  ImGui::TextWrapped("%s", text.c_str());
  ImGui::PopStyleColor();
}

namespace {

void wrapped_in_colour(const ImVec4& colour, const char* format, va_list args) {
  ImGui::PushStyleColor(ImGuiCol_Text, colour);
  ImGui::PushTextWrapPos(0.0f);  // wrap at the window's edge
  ImGui::TextV(format, args);
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
}

}  // namespace

float field_width(float preferred) { return std::min(preferred, 0.55f * ImGui::GetContentRegionAvail().x); }

void note_text(const char* format, ...) {
  va_list args;
  va_start(args, format);
  wrapped_in_colour(ImGui::GetStyle().Colors[ImGuiCol_TextDisabled], format, args);
  va_end(args);
}

void coloured_text(const ImVec4& colour, const char* format, ...) {
  va_list args;
  va_start(args, format);
  wrapped_in_colour(colour, format, args);
  va_end(args);
}

void show_refusal(const UiState& ui, const char* label) {
  if (const auto it = ui.refusals.find(key(label)); it != ui.refusals.end()) error_text("refused: " + it->second);
}

bool checked_double(UiState& ui, const char* label, double value, const ParamRange& range, const char* format,
                    const Commit& commit) {
  double v = value;
  ImGui::SetNextItemWidth(field_width(kInputWidth));
  bool accepted = false;
  // EnterReturnsTrue: half-typed numbers (the "1" of "140000") never reach the model.
  if (ImGui::InputDouble(label, &v, 0.0, 0.0, format, ImGuiInputTextFlags_EnterReturnsTrue)) {
    const std::string refusal = commit(v);
    record(ui, label, refusal);
    accepted = refusal.empty();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("type a value and press Enter; allowed: %s", range.text().c_str());
  note_text("  %s", range.text().c_str());  // under the input, so a narrow side bar never cuts it
  show_refusal(ui, label);
  return accepted;
}

bool checked_vec3(UiState& ui, const char* label, const glm::dvec3& value, const char* format,
                  const CommitVec3& commit) {
  double v[3] = {value.x, value.y, value.z};
  ImGui::SetNextItemWidth(field_width(2.0f * kInputWidth));
  bool accepted = false;
  if (ImGui::InputScalarN(label, ImGuiDataType_Double, v, 3, nullptr, nullptr, format,
                          ImGuiInputTextFlags_EnterReturnsTrue)) {
    const std::string refusal = commit(glm::dvec3(v[0], v[1], v[2]));
    record(ui, label, refusal);
    accepted = refusal.empty();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("type the values and press Enter");
  show_refusal(ui, label);
  return accepted;
}

}  // namespace firn::viewer

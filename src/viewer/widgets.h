#pragma once
/// ImGui input widgets that go through the settings model: a typed value is committed with Enter, checked by the
/// model, and refused (kept out of the solver) with the allowed range shown in red under the widget.
#include <functional>
#include <string>

#include <glm/glm.hpp>
#include <imgui.h>

#include "viewer/settings_model.h"
#include "viewer/ui_state.h"

namespace firn::viewer {

/// Commits a value: returns "" when accepted, else the refusal message.
using Commit = std::function<std::string(double)>;
/// Commits a vector: returns "" when accepted, else the refusal message.
using CommitVec3 = std::function<std::string(const glm::dvec3&)>;

/// A number input showing `value`, with the allowed `range` next to it. Enter calls `commit`; a refusal is kept in
/// ui.refusals (keyed by the widget's ImGui id) and shown until a value is accepted. Returns true when a value was accepted.
bool checked_double(UiState& ui, const char* label, double value, const ParamRange& range, const char* format,
                    const Commit& commit);

/// A 3-vector input (e.g. a collider's position [m]); Enter calls `commit`; refusals as checked_double.
bool checked_vec3(UiState& ui, const char* label, const glm::dvec3& value, const char* format,
                  const CommitVec3& commit);

/// Shows the refusal of widget `label` in the current ImGui id scope (if any) in red.
void show_refusal(const UiState& ui, const char* label);

/// Red text (errors), wrapped.
void error_text(const std::string& text);

/// Width for the next input or combo [pixels]: `preferred`, or less in a narrow panel, where 45 % of the row stays
/// free for the label (the longest, "half extent [m]", needs ~110 pixels).
float field_width(float preferred);

/// Greyed-out text (hints, units, allowed ranges), printf-style, wrapped at the panel's edge.
void note_text(const char* format, ...) IM_FMTARGS(1);

/// Text in `colour`, printf-style, wrapped at the panel's edge.
void coloured_text(const ImVec4& colour, const char* format, ...) IM_FMTARGS(2);

}  // namespace firn::viewer

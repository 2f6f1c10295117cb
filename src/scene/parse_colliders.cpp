#include "scene/parse_colliders.h"

#include <string>

namespace firn::scene {

namespace {

constexpr std::string_view kPosition = "[x, y, z] [m]";
constexpr std::string_view kTypes = "plane, sphere, box";
constexpr std::string_view kBoundaries = "sticky, slip, separate";

ColliderShape parse_type(const Node& node) {
  const std::string type = node.string("type", kTypes);
  if (type == "plane") return ColliderShape::kPlane;
  if (type == "sphere") return ColliderShape::kSphere;
  if (type == "box") return ColliderShape::kBox;
  node.at("type", kTypes).fail("unknown collider type \"" + type + "\"", kTypes);
}

Boundary parse_boundary(const Node& node) {
  const std::string name = node.string(kBoundaries);
  if (name == "sticky") return Boundary::kSticky;
  if (name == "slip") return Boundary::kSlip;
  if (name == "separate") return Boundary::kSeparate;
  node.fail("unknown boundary \"" + name + "\"", kBoundaries);
}

/// Reads the shape-specific fields and rejects keys that belong to other shapes.
void parse_geometry(const Node& node, Collider& c) {
  switch (c.shape) {
    case ColliderShape::kPlane:
      node.expect_object({"type", "point", "normal", "velocity", "friction", "boundary"});
      c.point = node.vec3("point", kPosition);
      c.normal = parse_direction(node.at("normal", "a non-zero direction [x, y, z]"));
      return;
    case ColliderShape::kSphere:
      node.expect_object({"type", "center", "radius", "velocity", "friction", "boundary"});
      c.point = node.vec3("center", kPosition);
      c.radius = node.number("radius", {.text = "r > 0 [m]", .lo = 0, .lo_open = true});
      return;
    case ColliderShape::kBox: {
      node.expect_object({"type", "min", "max", "velocity", "friction", "boundary"});
      const glm::dvec3 lo = node.vec3("min", kPosition);
      const glm::dvec3 hi = node.vec3("max", kPosition);
      expect_ordered(lo, hi, node.at("max", kPosition));
      c.point = 0.5 * (lo + hi);
      c.half_extent = 0.5 * (hi - lo);
      return;
    }
  }
}

}  // namespace

Collider parse_collider(const Node& node) {
  node.expect_object();
  Collider c;
  c.shape = parse_type(node);
  parse_geometry(node, c);
  c.velocity = node.velocity("velocity", "[vx, vy, vz] [m/s]", glm::dvec3(0.0));
  c.friction = node.number("friction", {.text = "Coulomb friction mu >= 0", .lo = 0}, 0.0);
  if (auto boundary = node.find("boundary")) c.boundary = parse_boundary(*boundary);
  return c;
}

std::vector<Collider> parse_colliders(const Node& node) {
  std::vector<Collider> colliders;
  const std::size_t count = node.array_size();
  for (std::size_t i = 0; i < count; ++i) colliders.push_back(parse_collider(node.element(i)));
  return colliders;
}

}  // namespace firn::scene

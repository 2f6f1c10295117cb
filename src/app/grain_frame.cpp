#include "app/grain_frame.h"

#include <algorithm>
#include <array>

#include "dem/quaternion.h"

namespace firn::app {
namespace {

/// Triangles of a polyhedron's faces with per-face normals, body frame.
std::vector<render::PolyhedronVertex> mesh_of(const dem::Polyhedron& p) {
  std::vector<render::PolyhedronVertex> out;
  std::vector<glm::vec3> loop;
  for (int f = 0; f < p.face_count(); ++f) {
    loop.clear();
    for (int k = p.face_start[f]; k < p.face_start[f + 1]; ++k) loop.emplace_back(p.vertices[p.face_vertices[k]]);
    render::append_polygon(out, loop, glm::vec3(p.face_planes[f].normal));
  }
  return out;
}

render::PolyhedronInstance instance(const glm::dquat& q, const glm::dvec3& x) {
  return {glm::vec4(glm::vec3(x), 0.0f), glm::vec4(static_cast<float>(q.x), static_cast<float>(q.y),
                                                   static_cast<float>(q.z), static_cast<float>(q.w))};
}

constexpr glm::vec3 kWallColour{0.55f, 0.60f, 0.68f};

}  // namespace

glm::vec3 grain_colour(int type) {
  static const std::array<glm::vec3, 6> palette{glm::vec3{0.80f, 0.68f, 0.45f}, {0.75f, 0.25f, 0.20f},
                                                {0.30f, 0.50f, 0.80f}, {0.35f, 0.65f, 0.35f},
                                                {0.65f, 0.45f, 0.75f}, {0.50f, 0.50f, 0.50f}};
  return palette[static_cast<std::size_t>(type) % palette.size()];
}

void add_grains_to_frame(render::FrameContent& frame, const GrainSimulation& grains) {
  const dem::World& w = grains.world();
  for (int t = 0; t < static_cast<int>(w.types.size()); ++t) {
    render::PolyhedronSet set;
    set.triangles = mesh_of(w.types[t].shape);
    set.colour = grain_colour(t);
    for (const dem::Grain& g : w.grains) {
      if (g.type == t) set.instances.push_back(instance(g.body.orientation, g.body.position));
    }
    frame.polyhedra.push_back(std::move(set));
  }
  bool floor_seen = false;
  for (const dem::Wall& wall : w.walls) {
    if (!wall.active) continue;
    const glm::dquat q = dem::quat_from_rotation_matrix(wall.pose.rotation);
    if (wall.settings.type == dem::WallType::kPlane) {
      const glm::dvec3 n = wall.pose.rotation * wall.settings.normal;
      const glm::dvec3 p = wall.pose.rotation * wall.settings.point + wall.pose.translation;
      if (n.y > 0.999 && frame.ground) {  // the ground sits on the highest floor plane (else at its default)
        frame.ground->height = floor_seen ? std::max(frame.ground->height, p.y) : p.y;
        floor_seen = true;
      }
      Collider c;
      c.shape = ColliderShape::kPlane;
      c.point = wall.pose.rotation * wall.settings.point + wall.pose.translation;
      c.normal = wall.pose.rotation * wall.settings.normal;
      frame.colliders.push_back(c);
      continue;
    }
    render::PolyhedronSet set;
    set.colour = kWallColour;
    if (wall.settings.type == dem::WallType::kBox) {
      set.triangles = mesh_of(w.pieces[wall.first_piece].shape);
    } else {  // the mesh's own triangles (the grain side), not the prisms behind them
      for (const auto& t : wall.settings.triangles) {
        const glm::vec3 a(wall.settings.vertices[t[0]]), b(wall.settings.vertices[t[1]]), c(wall.settings.vertices[t[2]]);
        render::append_polygon(set.triangles, {a, b, c}, glm::normalize(glm::cross(b - a, c - a)));
      }
    }
    set.instances.push_back(instance(q, wall.pose.translation));
    frame.polyhedra.push_back(std::move(set));
  }
}

}  // namespace firn::app

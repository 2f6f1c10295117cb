#include "scene/mesh_body.h"

#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <assimp/Importer.hpp>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include "core/error.h"
#include "mpm/seeding.h"

namespace firn::scene {
namespace {

/// Moeller-Trumbore ray/triangle test; true when the ray o + t d (t > 0) crosses triangle (a, b, c).
bool ray_hits(const glm::dvec3& o, const glm::dvec3& d, const glm::dvec3& a, const glm::dvec3& b,
              const glm::dvec3& c) {
  const glm::dvec3 e1 = b - a, e2 = c - a, p = glm::cross(d, e2);
  const double det = glm::dot(e1, p);
  if (std::abs(det) < 1e-18) return false;
  const glm::dvec3 s = o - a;
  const double u = glm::dot(s, p) / det;
  if (u < 0 || u > 1) return false;
  const glm::dvec3 q = glm::cross(s, e1);
  const double v = glm::dot(d, q) / det;
  if (v < 0 || u + v > 1) return false;
  return glm::dot(e2, q) / det > 0;
}

}  // namespace

namespace {

/// The element counts a PLY header declares ("element vertex N", "element face M"); nullopt when `path` is not a
/// PLY file. Assimp accepts a PLY cut short and returns what it read; comparing with the header catches that.
std::optional<std::pair<uint64_t, uint64_t>> ply_header_counts(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::string line;
  if (!std::getline(in, line) || line.rfind("ply", 0) != 0) return std::nullopt;
  uint64_t vertices = 0, faces = 0;
  for (int n = 0; n < 1000 && std::getline(in, line); ++n) {
    std::istringstream words(line);
    std::string word, kind;
    uint64_t count = 0;
    words >> word;
    if (word == "end_header") return std::pair{vertices, faces};
    if (word == "element" && words >> kind >> count) (kind == "vertex" ? vertices : kind == "face" ? faces : count) = count;
  }
  return std::pair{vertices, faces};
}

/// "[x, y, z]" of a mesh vertex for messages.
std::string where(const glm::dvec3& v) {
  char buffer[96];
  std::snprintf(buffer, sizeof buffer, "[%g, %g, %g]", v.x, v.y, v.z);
  return buffer;
}

/// Checks that the triangle soup `mesh` bounds a volume: every edge, after welding equal positions, is used once
/// in each direction (closed, two-manifold, consistently oriented) and the enclosed volume is not zero. Throws
/// InputError prefixed with `name`.
void expect_closed(const TriangleMesh& mesh, const std::string& name) {
  constexpr std::string_view kAllowed =
      "; allowed: a closed surface whose every edge joins exactly two triangles that list it in opposite orders "
      "(consistently oriented), enclosing a non-zero volume";
  std::map<std::array<double, 3>, uint32_t> ids;
  auto id = [&](const glm::dvec3& v) { return ids.emplace(std::array{v.x, v.y, v.z}, ids.size()).first->second; };
  std::map<std::pair<uint32_t, uint32_t>, std::pair<int, std::size_t>> edges;  // directed edge -> uses, triangle
  double volume = 0;
  glm::dvec3 lo(INFINITY), hi(-INFINITY);
  for (std::size_t t = 0; t < mesh.vertices.size() / 3; ++t) {
    const glm::dvec3* v = &mesh.vertices[3 * t];
    const uint32_t a = id(v[0]), b = id(v[1]), c = id(v[2]);
    volume += glm::dot(v[0], glm::cross(v[1], v[2])) / 6.0;
    for (int k = 0; k < 3; ++k) lo = glm::min(lo, v[k]), hi = glm::max(hi, v[k]);
    if (a == b || b == c || c == a) continue;  // a triangle with a repeated corner adds no edge and no volume
    for (auto e : {std::pair{a, b}, std::pair{b, c}, std::pair{c, a}}) {
      auto& [uses, triangle] = edges[e];
      ++uses;
      triangle = t;
    }
  }
  std::vector<glm::dvec3> position(ids.size());
  for (const auto& [p, i] : ids) position[i] = {p[0], p[1], p[2]};
  for (const auto& [e, use] : edges) {
    const std::string edge = where(position[e.first]) + " - " + where(position[e.second]);
    if (use.first > 1)
      throw InputError(name + ": edge " + edge + " is used " + std::to_string(use.first) +
                       " times in one direction (triangle " + std::to_string(use.second) +
                       "): faces inconsistently oriented or more than two faces on an edge" + std::string(kAllowed));
    if (!edges.contains({e.second, e.first}))
      throw InputError(name + ": open surface: edge " + edge + " of triangle " + std::to_string(use.second) +
                       " has no neighbour across it" + std::string(kAllowed));
  }
  const glm::dvec3 size = hi - lo;
  if (edges.empty() || !(std::abs(volume) > 1e-9 * size.x * size.y * size.z) || !(size.x * size.y * size.z > 0))
    throw InputError(name + ": degenerate: the triangles enclose no volume (" + std::to_string(volume) + ")" +
                     std::string(kAllowed));
}

}  // namespace

TriangleMesh load_triangles(const std::filesystem::path& path) {
  const std::string name = path.string();
  std::error_code error;
  const auto bytes = std::filesystem::file_size(path, error);
  if (error) throw InputError(name + ": cannot read mesh: " + error.message() + "; allowed: a readable mesh file");
  if (bytes > kMaxMeshBytes)
    throw InputError(name + ": " + std::to_string(bytes) + " bytes; allowed: a mesh file of at most " +
                     std::to_string(kMaxMeshBytes) + " bytes");
  // Only Assimp's structure validation (indices in range, counts consistent): its other post-processing steps
  // crash or assert on broken input (a face index of 2e9, a PLY cut short), and firn triangulates itself.
  Assimp::Importer importer;
  const aiScene* s = importer.ReadFile(name, aiProcess_ValidateDataStructure);
  if (!s) throw InputError(name + ": cannot read mesh: " + importer.GetErrorString() + "; allowed: a mesh file "
                           "in a format Assimp reads, with every face index naming a vertex");
  TriangleMesh out;
  uint64_t vertices = 0, faces = 0;
  std::vector<glm::dvec3> polygon;
  for (unsigned m = 0; m < s->mNumMeshes; ++m) {
    const aiMesh* mesh = s->mMeshes[m];
    vertices += mesh->mNumVertices;
    faces += mesh->mNumFaces;
    for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
      const aiFace& face = mesh->mFaces[f];
      if (face.mNumIndices < 3) continue;  // points and lines bound nothing
      polygon.clear();
      for (unsigned k = 0; k < face.mNumIndices; ++k) {
        const unsigned index = face.mIndices[k];
        if (index >= mesh->mNumVertices)
          throw InputError(name + ": face " + std::to_string(f) + " names vertex " + std::to_string(index) + " of " +
                           std::to_string(mesh->mNumVertices) + "; allowed: vertex indices below the vertex count");
        const aiVector3D& v = mesh->mVertices[index];
        polygon.emplace_back(v.x, v.y, v.z);
        if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z))
          throw InputError(name + ": vertex " + std::to_string(index) + " is " + where(polygon.back()) +
                           "; allowed: finite coordinates");
      }
      // A polygon is split into a fan of triangles around its first corner (exact for convex polygons).
      for (std::size_t k = 1; k + 1 < polygon.size(); ++k)
        out.vertices.insert(out.vertices.end(), {polygon[0], polygon[k], polygon[k + 1]});
    }
  }
  if (const auto header = ply_header_counts(path); header && (header->first != vertices || header->second != faces))
    throw InputError(name + ": read " + std::to_string(vertices) + " vertices and " + std::to_string(faces) +
                     " faces, the header declares " + std::to_string(header->first) + " and " +
                     std::to_string(header->second) + " (file cut short?); allowed: a complete PLY file");
  if (out.vertices.empty()) throw InputError(name + ": mesh has no triangles; allowed: a closed surface");
  expect_closed(out, name);
  return out;
}

double mesh_seeding_tests(const mpm::Body& body, double h, std::size_t triangles) {
  const glm::dvec3 cells = glm::ceil(body.max / h) - glm::floor(body.min / h);
  return cells.x * cells.y * cells.z * body.particles_per_cell * static_cast<double>(triangles);
}

void validate_mesh_body(const Node& file, const mpm::Body& body, double h) {
  TriangleMesh mesh;
  try {
    mesh = load_triangles(body.mesh);
  } catch (const InputError& e) {
    throw InputError(file.file() + ": " + file.path() + ": " + e.what());
  }
  const std::size_t triangles = mesh.vertices.size() / 3;
  const double tests = mesh_seeding_tests(body, h, triangles);
  if (tests > kMaxMeshSeedingTests)
    file.fail("seeding takes " + format_number(tests) + " ray-triangle tests (" + std::to_string(triangles) +
                  " triangles x " + format_number(tests / static_cast<double>(triangles)) + " samples)",
              "at most " + format_number(kMaxMeshSeedingTests) +
                  " tests per mesh body (fewer triangles, a coarser grid, a smaller box or fewer particles_per_cell)");
}

TriangleMesh fit_into_box(const TriangleMesh& mesh, const glm::dvec3& lo, const glm::dvec3& hi) {
  glm::dvec3 mlo(INFINITY), mhi(-INFINITY);
  for (const auto& v : mesh.vertices) {
    mlo = glm::min(mlo, v);
    mhi = glm::max(mhi, v);
  }
  // Flat axes must not divide by zero, but the floor is relative: an absolute 1e-12 m left a mesh 1e-30 m wide at
  // 3e-19 m, with no particles and a message about the box (robustness sweep, 2026-11-27).
  const glm::dvec3 extent = mhi - mlo;
  const double largest = std::max({extent.x, extent.y, extent.z});
  const glm::dvec3 size = glm::max(extent, glm::dvec3(1e-12 * largest));
  const glm::dvec3 ratio = (hi - lo) / size;
  const double scale = std::min(ratio.x, std::min(ratio.y, ratio.z));
  const glm::dvec3 offset = 0.5 * (lo + hi) - scale * 0.5 * (mlo + mhi);
  TriangleMesh out;
  for (const auto& v : mesh.vertices) out.vertices.push_back(offset + scale * v);
  return out;
}

bool inside_mesh(const TriangleMesh& mesh, const glm::dvec3& x) {
  // An irrational-looking direction makes hits exactly on edges or vertices vanishingly unlikely.
  const glm::dvec3 d = glm::normalize(glm::dvec3(0.8630127, 0.3281743, 0.3842311));
  int crossings = 0;
  for (size_t i = 0; i + 2 < mesh.vertices.size(); i += 3)
    crossings += ray_hits(x, d, mesh.vertices[i], mesh.vertices[i + 1], mesh.vertices[i + 2]) ? 1 : 0;
  return crossings % 2 == 1;
}

std::vector<mpm::GpuParticle> sample_mesh_body(const mpm::Body& body, const mpm::Material& material, double h) {
  const TriangleMesh mesh = fit_into_box(load_triangles(body.mesh), body.min, body.max);
  return mpm::sample_region(body.min, body.max, body, material, h,
                            [&](const glm::dvec3& x) { return inside_mesh(mesh, x); });
}

}  // namespace firn::scene

#include "scene/mesh_body.h"

#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <assimp/Importer.hpp>
#include <cmath>

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

TriangleMesh load_triangles(const std::filesystem::path& path) {
  Assimp::Importer importer;
  const aiScene* s = importer.ReadFile(path.string(), aiProcess_Triangulate | aiProcess_JoinIdenticalVertices);
  if (!s) throw InputError(path.string() + ": cannot read mesh: " + importer.GetErrorString());
  TriangleMesh out;
  for (unsigned m = 0; m < s->mNumMeshes; ++m) {
    const aiMesh* mesh = s->mMeshes[m];
    for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
      const aiFace& face = mesh->mFaces[f];
      if (face.mNumIndices != 3) continue;
      for (int k = 0; k < 3; ++k) {
        const aiVector3D& v = mesh->mVertices[face.mIndices[k]];
        out.vertices.emplace_back(v.x, v.y, v.z);
      }
    }
  }
  if (out.vertices.empty()) throw InputError(path.string() + ": mesh has no triangles; allowed: a closed surface");
  return out;
}

TriangleMesh fit_into_box(const TriangleMesh& mesh, const glm::dvec3& lo, const glm::dvec3& hi) {
  glm::dvec3 mlo(INFINITY), mhi(-INFINITY);
  for (const auto& v : mesh.vertices) {
    mlo = glm::min(mlo, v);
    mhi = glm::max(mhi, v);
  }
  const glm::dvec3 size = glm::max(mhi - mlo, glm::dvec3(1e-12));
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

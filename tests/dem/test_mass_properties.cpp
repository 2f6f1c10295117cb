// Mass properties by the corrected canonical-pyramid decomposition (notes §3.3-3.4, §14 claim 1), checked against
// an independent signed-tetrahedron covariance sum, Monte Carlo, and closed forms.
#include <cmath>
#include <numbers>
#include <random>
#include <stdexcept>

#include <gtest/gtest.h>

#include "dem/closest_feature_oracle.h"
#include "dem/mass_properties.h"

namespace firn::dem {
namespace {

using glm::dmat3;
using glm::dvec3;
using oracle::test_seed;
using oracle::uniform;

double max_abs(const dmat3& m) {
  double r = 0.0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r = std::max(r, std::abs(m[i][j]));
  return r;
}

struct Reference {
  double volume = 0.0;
  dvec3 com{0.0};
  dmat3 inertia{0.0};  // about the COM, unit density
};

/// Independent reference (notes §3.4 [X]): signed tetrahedra (O, A, B, C) over fan triangles, covariance
/// C = V/20 (AA^T + BB^T + CC^T + (A+B+C)(A+B+C)^T), I = tr(C) 1 - C, shifted to the COM by the parallel-axis theorem.
Reference tetra_reference(const Polyhedron& p) {
  Reference r;
  dmat3 cov(0.0);
  for (const auto& t : oracle::triangles(p)) {
    const dvec3 a = p.vertices[t[0]], b = p.vertices[t[1]], c = p.vertices[t[2]];
    const double v = glm::dot(a, glm::cross(b, c)) / 6.0;
    r.volume += v;
    r.com += v * (a + b + c) / 4.0;
    const dvec3 s = a + b + c;
    cov += v / 20.0 * (glm::outerProduct(a, a) + glm::outerProduct(b, b) + glm::outerProduct(c, c) +
                       glm::outerProduct(s, s));
  }
  r.com /= r.volume;
  cov -= r.volume * glm::outerProduct(r.com, r.com);
  r.inertia = (cov[0][0] + cov[1][1] + cov[2][2]) * dmat3(1.0) - cov;
  return r;
}

TEST(MassProperties, CanonicalPyramidMatchesTetrahedronFormula) {
  std::mt19937_64 rng(test_seed());
  for (int trial = 0; trial < 200; ++trial) {
    const double a = uniform(rng, 0.1, 2), b = uniform(rng, -2, 2), c = uniform(rng, -2, 2), d = uniform(rng, 0.1, 2);
    const CanonicalPyramid cp = canonical_pyramid(a, b, c, d);
    const dvec3 p2(a, 0, 0), p3(a, d, 0), p4(a, b, c), s = p2 + p3 + p4;
    const double v = glm::dot(p2, glm::cross(p3, p4)) / 6.0;
    dmat3 cov = v / 20.0 * (glm::outerProduct(p2, p2) + glm::outerProduct(p3, p3) + glm::outerProduct(p4, p4) +
                            glm::outerProduct(s, s));
    const dmat3 inertia = (cov[0][0] + cov[1][1] + cov[2][2]) * dmat3(1.0) - cov;
    EXPECT_NEAR(cp.volume, v, 1e-14 * std::abs(v) + 1e-16);
    EXPECT_LT(glm::length(cp.centroid - s / 4.0), 1e-14);
    EXPECT_LT(max_abs(cp.inertia_about_apex - inertia), 1e-13 * max_abs(inertia) + 1e-16);
  }
}

TEST(MassProperties, RandomGrainsMatchTetrahedronReference) {
  std::mt19937_64 rng(test_seed());
  for (int n : {4, 7, 14, 37, 101, 256}) {
    const Polyhedron p = make_ellipsoid_polyhedron(
        {uniform(rng, 0.5, 1.5), uniform(rng, 0.5, 1.5), uniform(rng, 0.5, 1.5), n, rng()});
    const Polyhedron moved = translated(p, {uniform(rng, -3, 3), uniform(rng, -3, 3), uniform(rng, -3, 3)});
    for (const Polyhedron* q : {&p, &moved}) {
      const MassProperties mp = mass_properties(*q, 2.5);
      const Reference ref = tetra_reference(*q);
      EXPECT_NEAR(mp.volume, ref.volume, 1e-13 * ref.volume) << n;
      EXPECT_NEAR(mp.mass, 2.5 * ref.volume, 1e-13 * ref.volume) << n;
      EXPECT_LT(glm::length(mp.centre_of_mass - ref.com), 1e-13 * (1.0 + glm::length(ref.com))) << n;
      EXPECT_LT(max_abs(mp.inertia - 2.5 * ref.inertia), 1e-12 * max_abs(2.5 * ref.inertia)) << n;
    }
  }
}

// Notes §3.4 pitfall 1 / claim 1 negative test: applying the printed Steiner term of eq. 3.16 must give a wrong tensor.
TEST(MassProperties, PrintedSteinerTermWouldFail) {
  const Polyhedron p = centred_on_centre_of_mass(make_ellipsoid_polyhedron({1.5, 1.0, 0.7, 14, test_seed()}));
  dmat3 with_steiner(0.0);
  for (const auto& t : oracle::triangles(p)) {
    const dvec3 e[3] = {p.vertices[t[0]], p.vertices[t[1]], p.vertices[t[2]]};
    const dvec3 n = glm::normalize(glm::cross(e[1] - e[0], e[2] - e[0]));
    const dvec3 foot = glm::dot(n, e[0]) * n;
    for (int k = 0; k < 3; ++k) {
      const dvec3 y = e[k] - foot;
      const dvec3 yh = glm::normalize(y), zh = glm::cross(n, yh);
      const CanonicalPyramid cp = canonical_pyramid(glm::length(foot), glm::dot(yh, e[(k + 1) % 3]),
                                                    glm::dot(zh, e[(k + 1) % 3]), glm::length(y));
      const dmat3 r(n, yh, zh);
      const dvec3 a = cp.centroid;
      const dmat3 steiner = cp.volume * (glm::dot(a, a) * dmat3(1.0) - glm::outerProduct(a, a));
      with_steiner += r * (cp.inertia_about_apex + steiner) * glm::transpose(r);
    }
  }
  const dmat3 correct = mass_properties(p, 1.0).inertia;
  EXPECT_LT(max_abs(tetra_reference(p).inertia - correct), 1e-13 * max_abs(correct));
  EXPECT_GT(max_abs(with_steiner - correct), 0.1 * max_abs(correct));
}

TEST(MassProperties, BoxAndTetrahedronClosedForms) {
  const double hx = 0.3, hy = 0.5, hz = 1.1, rho = 7.0;
  const MassProperties box = mass_properties(make_box({hx, hy, hz}), rho);
  const double m = rho * 8 * hx * hy * hz;
  EXPECT_NEAR(box.volume, 8 * hx * hy * hz, 1e-15);
  EXPECT_LT(glm::length(box.centre_of_mass), 1e-15);
  const dmat3 expect = m / 3.0 * dmat3(hy * hy + hz * hz, 0, 0, 0, hx * hx + hz * hz, 0, 0, 0, hx * hx + hy * hy);
  EXPECT_LT(max_abs(box.inertia - expect), 1e-14 * max_abs(expect));
  const double s = 0.8;  // cube: I = m s^2 / 6 * identity (notes §14 claim 1)
  const MassProperties cube = mass_properties(make_box(dvec3(s / 2)), 1.0);
  EXPECT_LT(max_abs(cube.inertia - (s * s * s) * s * s / 6.0 * dmat3(1.0)), 1e-15);
  const double l = 0.9;  // regular tetrahedron: V = l^3 / (6 sqrt 2), isotropic I = m l^2 / 20
  const MassProperties tet = mass_properties(make_regular_tetrahedron(l), 1.0);
  EXPECT_NEAR(tet.volume, l * l * l / (6 * std::numbers::sqrt2), 1e-15);
  EXPECT_LT(max_abs(tet.inertia - tet.mass * l * l / 20.0 * dmat3(1.0)), 1e-15);
  EXPECT_THROW(mass_properties(make_box({1, 1, 1}), 0.0), std::runtime_error);
}

TEST(MassProperties, FineEllipsoidHullApproachesTheEllipsoid) {
  const double a = 1.2, b = 0.9, c = 0.6;
  const double v_ell = 4.0 / 3.0 * std::numbers::pi * a * b * c;
  double previous_error = 1.0;
  for (int n : {300, 1200, 4000}) {
    const MassProperties mp = mass_properties(make_ellipsoid_polyhedron({a, b, c, n, test_seed() + n, 0.5}), 1.0);
    const double err = std::abs(mp.volume - v_ell) / v_ell;
    EXPECT_LT(err, previous_error) << n;
    previous_error = err;
    EXPECT_LT(glm::length(mp.centre_of_mass), 0.02 * c) << n;
    const dvec3 expect = mp.mass / 5.0 * dvec3(b * b + c * c, a * a + c * c, a * a + b * b);
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(mp.inertia[i][i], expect[i], (n < 1000 ? 0.03 : 0.01) * expect[i]) << n;
  }
  EXPECT_LT(previous_error, 0.005);  // 4000 vertices: within 0.5 % of 4/3 pi abc
}

TEST(MassProperties, MonteCarloVolumeAndCentre) {
  std::mt19937_64 rng(test_seed());
  const Polyhedron p = translated(make_ellipsoid_polyhedron({1.1, 0.7, 0.5, 23, rng()}), {0.3, -0.2, 0.1});
  const MassProperties mp = mass_properties(p, 1.0);
  const int samples = 400000;
  int hits = 0;
  dvec3 sum(0.0);
  const dvec3 lo(-0.8, -0.9, -0.4), hi(1.4, 0.5, 0.6);
  for (int i = 0; i < samples; ++i) {
    const dvec3 x(uniform(rng, lo.x, hi.x), uniform(rng, lo.y, hi.y), uniform(rng, lo.z, hi.z));
    bool inside = true;
    for (const Plane& pl : p.face_planes) inside = inside && glm::dot(pl.normal, x) + pl.offset <= 0.0;
    if (inside) ++hits, sum += x;
  }
  const double box_volume = (hi.x - lo.x) * (hi.y - lo.y) * (hi.z - lo.z);
  EXPECT_NEAR(mp.volume, box_volume * hits / samples, 0.01 * mp.volume);
  EXPECT_LT(glm::length(mp.centre_of_mass - sum / static_cast<double>(hits)), 0.01);
}

TEST(MassProperties, SymmetricEigenAndPrincipalAxes) {
  std::mt19937_64 rng(test_seed());
  for (int trial = 0; trial < 100; ++trial) {
    dmat3 m;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j <= i; ++j) m[i][j] = m[j][i] = uniform(rng, -2, 2);
    const SymmetricEigen e = symmetric_eigen(m);
    EXPECT_LE(e.values[0], e.values[1]);
    EXPECT_LE(e.values[1], e.values[2]);
    EXPECT_NEAR(glm::determinant(e.vectors), 1.0, 1e-13);
    for (int k = 0; k < 3; ++k) EXPECT_LT(glm::length(m * e.vectors[k] - e.values[k] * e.vectors[k]), 1e-13);
  }
  const glm::dmat3 r = glm::mat3_cast(oracle::random_rotation(rng));
  HullMesh mesh = to_mesh(make_box({0.2, 0.5, 0.9}));
  for (dvec3& v : mesh.vertices) v = r * v;
  const MassProperties mp = mass_properties(make_polyhedron(mesh), 1.0);
  const double m = 8 * 0.2 * 0.5 * 0.9;
  EXPECT_NEAR(mp.principal_moments[0], m / 3 * (0.04 + 0.25), 1e-14);
  EXPECT_NEAR(mp.principal_moments[2], m / 3 * (0.25 + 0.81), 1e-14);
  EXPECT_NEAR(std::abs(glm::dot(mp.principal_axes[2], r[0])), 1.0, 1e-12);  // smallest extent x -> largest moment
}

}  // namespace
}  // namespace firn::dem

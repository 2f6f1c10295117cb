// The GLSL 3x3 SVD (shaders/mpm/svd.glsl) on random matrices of several kinds, run by a test compute shader
// (tests/mpm/shaders/svd_test.comp), against the double-precision SVD of the CPU reference; and that reference on its
// own.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "cpu_reference.h"
#include "gl/buffer.h"
#include "gl/gl.h"
#include "gl/program.h"
#include "mpm_test_util.h"
#include "support/gl_context.h"

using namespace firn;
using namespace firn::mpm;
using glm::dmat3;
using glm::dvec3;

namespace {

struct GpuMatrix {
  glm::vec4 col[3];
};
struct GpuSvd {
  glm::vec4 u[3], v[3];
  glm::vec4 s;
  glm::vec4 r[3];
  glm::vec4 q;      ///< quaternion (x, y, z, w) of the input taken as a rotation
  glm::vec4 rq[3];  ///< the rotation of q
};
static_assert(sizeof(GpuSvd) == 224);

dmat3 random_rotation(std::mt19937_64& rng) { return glm::mat3_cast(mpmtest::random_rotation(rng)); }

dmat3 with_singular_values(std::mt19937_64& rng, const dvec3& s) {
  return random_rotation(rng) * dmat3(s.x, 0, 0, 0, s.y, 0, 0, 0, s.z) * glm::transpose(random_rotation(rng));
}

/// Families of test matrices; each is rounded to float before use, so both sides see the same matrix.
enum class Kind { kGeneral, kNearSingular, kReflected, kNearIdentity, kRotation, kTwoSmall, kScaled };
const char* name(Kind k) {
  switch (k) {
    case Kind::kGeneral: return "general U(-1,1)";
    case Kind::kNearSingular: return "near-singular s2/s0 1e-7..1e-3";
    case Kind::kReflected: return "reflected (det < 0)";
    case Kind::kNearIdentity: return "near identity I + 1e-3";
    case Kind::kRotation: return "pure rotation";
    case Kind::kTwoSmall: return "two small s 1e-4, 1e-5";
    case Kind::kScaled: return "scaled 1e-3..1e3";
  }
  return "";
}

dmat3 make(std::mt19937_64& rng, Kind k) {
  const auto u = [&](double a, double b) { return mpmtest::uniform(rng, a, b); };
  switch (k) {
    case Kind::kGeneral: {
      dmat3 m;
      for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r) m[c][r] = u(-1, 1);
      return m;
    }
    case Kind::kNearSingular: {
      const double s0 = u(0.5, 2), s1 = s0 * u(0.1, 1), s2 = s0 * std::pow(10.0, u(-7, -3));
      return with_singular_values(rng, {s0, s1, u(0, 1) < 0.5 ? s2 : -s2});
    }
    case Kind::kReflected: {
      const double s0 = u(0.5, 2), s1 = s0 * u(0.2, 1), s2 = s1 * u(0.2, 1);
      return with_singular_values(rng, {s0, s1, -s2});
    }
    case Kind::kNearIdentity: {
      dmat3 m(1.0);
      for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r) m[c][r] += u(-1e-3, 1e-3);
      return m;
    }
    case Kind::kRotation: return random_rotation(rng);
    case Kind::kTwoSmall: return with_singular_values(rng, {1.0, 1e-4, u(0, 1) < 0.5 ? 1e-5 : -1e-5});
    case Kind::kScaled: {
      dmat3 m;
      for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r) m[c][r] = u(-1, 1);
      return m * std::pow(10.0, u(-3, 3));
    }
  }
  return dmat3(1.0);
}

dmat3 to_d(const glm::vec4 c[3]) {
  return dmat3(dvec3(glm::vec3(c[0])), dvec3(glm::vec3(c[1])), dvec3(glm::vec3(c[2])));
}

double orthonormality_error(const dmat3& q) { return ref::max_abs(glm::transpose(q) * q - dmat3(1.0)); }

/// Runs svd_test.comp on the float matrices `mats` (one result each).
std::vector<GpuSvd> run_svd_shader(const std::vector<dmat3>& mats) {
  std::vector<GpuMatrix> in;
  for (const dmat3& d : mats) {
    const glm::mat3 m(d);
    in.push_back({{glm::vec4(m[0], 0), glm::vec4(m[1], 0), glm::vec4(m[2], 0)}});
  }
  gl::Program prog = gl::Program::compute(std::filesystem::path(FIRN_TEST_DIR) / "mpm/shaders/svd_test.comp");
  gl::Buffer inputs = gl::Buffer::from(in);
  gl::Buffer outputs(sizeof(GpuSvd) * in.size());
  inputs.bind_storage(0);
  outputs.bind_storage(1);
  prog.set("count", static_cast<unsigned>(in.size()));
  prog.dispatch_1d(static_cast<unsigned>(in.size()), 64);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  return outputs.read<GpuSvd>();
}

}  // namespace

TEST(MpmSvd, GlslSvdReconstructsRandomMatrices) {
  firn::test::gl_context();
  std::mt19937_64 rng(mpmtest::test_seed());
  const Kind kinds[] = {Kind::kGeneral, Kind::kNearSingular, Kind::kReflected, Kind::kNearIdentity,
                        Kind::kRotation, Kind::kTwoSmall, Kind::kScaled};
  constexpr int kPerKind = 613;
  std::vector<dmat3> mats;
  for (Kind k : kinds)
    for (int i = 0; i < kPerKind; ++i) mats.push_back(dmat3(glm::mat3(make(rng, k))));
  const auto out = run_svd_shader(mats);

  // Required accuracy: 1e-5 relative to |F| (the largest singular value) for the reconstruction, the singular
  // values and the ordering; 1e-5 absolute for the orthonormality and determinants of U and V.
  constexpr double kTol = 1e-5;
  for (size_t kind = 0; kind < std::size(kinds); ++kind) {
    double worst_rec = 0, worst_orth = 0, worst_det = 0, worst_s = 0, worst_order = 0;
    int sign_checked = 0, failures = 0;
    for (int j = 0; j < kPerKind; ++j) {
      const size_t i = kind * kPerKind + static_cast<size_t>(j);
      const dmat3& f = mats[i];
      const dmat3 u = to_d(out[i].u), v = to_d(out[i].v);
      const dvec3 s(glm::vec3(out[i].s));
      const ref::Svd exact = ref::svd(f);
      const double norm = exact.s[0];
      const double rec = ref::max_abs(u * dmat3(s.x, 0, 0, 0, s.y, 0, 0, 0, s.z) * glm::transpose(v) - f) / norm;
      const double orth = std::max(orthonormality_error(u), orthonormality_error(v));
      const double det = std::max(std::abs(glm::determinant(u) - 1.0), std::abs(glm::determinant(v) - 1.0));
      const double serr = ref::max_abs(s - exact.s) / norm;
      const double order = std::max({s[1] - s[0], std::abs(s[2]) - s[1], 0.0}) / norm;
      worst_rec = std::max(worst_rec, rec);
      worst_orth = std::max(worst_orth, orth);
      worst_det = std::max(worst_det, det);
      worst_s = std::max(worst_s, serr);
      worst_order = std::max(worst_order, order);
      bool ok = rec <= kTol && orth <= kTol && det <= kTol && serr <= kTol && order <= kTol;
      // The sign of s2 is decidable in float only where |s2| is above the float resolution of F.
      if (std::abs(exact.s[2]) > kTol * norm) {
        ++sign_checked;
        ok = ok && (s[2] < 0) == (glm::determinant(f) < 0);
      }
      if (!ok && ++failures <= 3)
        ADD_FAILURE() << name(kinds[kind]) << " matrix " << j << ": reconstruction " << rec << ", orthonormality "
                      << orth << ", det " << det << ", singular values " << serr << " (gpu " << s.x << " " << s.y
                      << " " << s.z << ", exact " << exact.s.x << " " << exact.s.y << " " << exact.s.z << ")";
    }
    std::printf("  %-32s reconstruction %.2e  |U^TU-I|,|V^TV-I| %.2e  |det-1| %.2e  s %.2e  order %.1e  "
                "sign checked %d\n",
                name(kinds[kind]), worst_rec, worst_orth, worst_det, worst_s, worst_order, sign_checked);
    EXPECT_EQ(failures, 0) << name(kinds[kind]);
  }

  // The polar rotation near the identity (the simulation's regime, used by the stress in particle-to-grid) is
  // within kSvdError eps of the exact one, the constant the pass tests' bounds assume.
  double worst_polar = 0;
  for (size_t i = 0; i < mats.size(); ++i) {
    if (i / kPerKind != 3 && i / kPerKind != 4) continue;  // near identity, rotations
    worst_polar = std::max(worst_polar, ref::max_abs(to_d(out[i].r) - ref::polar_rotation(mats[i])));
  }
  std::printf("  polar rotation near identity: max error %.2e = %.1f eps (bound %.0f eps)\n", worst_polar,
              worst_polar / ref::kEps, ref::kSvdError);
  EXPECT_LE(worst_polar, ref::kSvdError * ref::kEps);
}

// The particles keep R_E as a quaternion (common/quaternion.glsl): on float-rounded rotations of every kind
// (uniform; within 1e-3 rad of the identity; within 1e-3 rad of a half turn about x, y or z, where Shepperd's
// method divides by x, y or z; and about the diagonals where two components tie), the quaternion matches glm's
// double quat_cast of the same float matrix and maps back to it. Bounds: the input is a rotation to half an eps
// per entry; each quaternion component is one or two sums of entries divided by 2r with r >= 1 (the largest of
// four squares summing to 4), with a square root and a division: 4 eps covers it; the way back sums products of
// two components: 8 eps.
TEST(MpmSvd, GlslQuaternionOfRotations) {
  firn::test::gl_context();
  std::mt19937_64 rng(mpmtest::test_seed());
  const auto u = [&](double a, double b) { return mpmtest::uniform(rng, a, b); };
  std::vector<dmat3> mats;
  for (int i = 0; i < 1000; ++i) mats.push_back(glm::mat3_cast(mpmtest::random_rotation(rng)));
  for (int i = 0; i < 300; ++i)
    mats.push_back(glm::mat3_cast(glm::angleAxis(u(0, 1e-3), mpmtest::random_direction(rng))));
  for (int axis = 0; axis < 3; ++axis)
    for (int i = 0; i < 300; ++i) {
      dvec3 a = 1e-3 * mpmtest::random_direction(rng);
      a[axis] += 1.0;
      mats.push_back(glm::mat3_cast(glm::angleAxis(3.141592653589793 + u(-1e-3, 1e-3), glm::normalize(a))));
    }
  for (int i = 0; i < 300; ++i)  // about (1, 1, 0), (1, 1, 1) ...: ties between the largest components
    mats.push_back(glm::mat3_cast(glm::angleAxis(u(0, 6.283185307179586),
                                                 glm::normalize(dvec3(1.0, u(0.999, 1.001), u(0, 1) < 0.5 ? 1.0 : 0.0)))));
  for (dmat3& m : mats) m = dmat3(glm::mat3(m));  // both sides see the float matrix
  const auto out = run_svd_shader(mats);
  double worst_q = 0, worst_back = 0, worst_norm = 0;
  int failures = 0;
  for (size_t i = 0; i < mats.size(); ++i) {
    glm::dquat want = glm::quat_cast(mats[i]);
    if (want.w < 0) want = -want;
    const glm::dvec4 got(out[i].q), exact(want.x, want.y, want.z, want.w);
    // At w = 0 (a half turn) q and -q both have w >= 0: compare to the nearer.
    const auto max_abs4 = [](const glm::dvec4& v) {
      return std::max(std::max(std::abs(v.x), std::abs(v.y)), std::max(std::abs(v.z), std::abs(v.w)));
    };
    const double dq = std::min(max_abs4(got - exact), max_abs4(got + exact));
    const double back = ref::max_abs(to_d(out[i].rq) - mats[i]);
    const double norm = std::abs(glm::length(got) - 1.0);
    worst_q = std::max(worst_q, dq);
    worst_back = std::max(worst_back, back);
    worst_norm = std::max(worst_norm, norm);
    if ((dq > 4 * ref::kEps || back > 8 * ref::kEps || out[i].q.w < 0) && ++failures <= 3)
      ADD_FAILURE() << "rotation " << i << ": quaternion off by " << dq / ref::kEps << " eps, back "
                    << back / ref::kEps << " eps, w " << out[i].q.w;
  }
  std::printf("  %zu rotations: quaternion %.1f eps, back to the matrix %.1f eps, | |q| - 1 | %.1f eps\n",
              mats.size(), worst_q / ref::kEps, worst_back / ref::kEps, worst_norm / ref::kEps);
  EXPECT_EQ(failures, 0);
}

TEST(MpmSvd, DoubleReferenceSvd) {
  std::mt19937_64 rng(mpmtest::test_seed());
  double worst_rec = 0, worst_orth = 0;
  for (Kind k : {Kind::kGeneral, Kind::kNearSingular, Kind::kReflected, Kind::kNearIdentity, Kind::kRotation,
                 Kind::kTwoSmall, Kind::kScaled})
    for (int i = 0; i < 311; ++i) {
      const dmat3 f = make(rng, k);
      const ref::Svd d = ref::svd(f);
      const double norm = d.s[0];
      worst_rec = std::max(worst_rec, ref::max_abs(d.u * dmat3(d.s.x, 0, 0, 0, d.s.y, 0, 0, 0, d.s.z) *
                                                        glm::transpose(d.v) - f) / norm);
      worst_orth = std::max(worst_orth, std::max(orthonormality_error(d.u), orthonormality_error(d.v)));
      ASSERT_NEAR(glm::determinant(d.u), 1.0, 1e-12);
      ASSERT_NEAR(glm::determinant(d.v), 1.0, 1e-12);
      ASSERT_GE(d.s[0], d.s[1] * (1.0 - 1e-14));
      ASSERT_GE(d.s[1], std::abs(d.s[2]) * (1.0 - 1e-14));
      ASSERT_EQ(d.s[2] < 0, glm::determinant(f) < 0);
      // Polar rotation: orthonormal, and R^T F symmetric (F = R S with S symmetric).
      const dmat3 r = ref::polar_rotation(f), sym = glm::transpose(r) * f;
      ASSERT_LE(ref::max_abs(sym - glm::transpose(sym)), 1e-12 * norm);
    }
  std::printf("  double SVD: reconstruction %.2e, orthonormality %.2e\n", worst_rec, worst_orth);
  EXPECT_LE(worst_rec, 1e-13);
  EXPECT_LE(worst_orth, 1e-13);
}

#pragma once
/// Eigen-decomposition of a symmetric 3x3 matrix (principal axes of inertia, the symbols of SPH's lattice sums).
#include <glm/glm.hpp>

namespace firn {

/// Eigen-decomposition of a symmetric 3x3 matrix.
struct SymmetricEigen {
  glm::dvec3 values{0.0};   ///< Eigenvalues in ascending order (units of the input).
  glm::dmat3 vectors{1.0};  ///< Unit eigenvectors as columns, matching `values`, forming a right-handed frame.
};

/// Cyclic Jacobi eigen-decomposition of a symmetric matrix (Golub & Van Loan, Matrix Computations, §8.5); converges
/// to relative off-diagonal 1e-15. Only the lower triangle is read.
SymmetricEigen symmetric_eigen(const glm::dmat3& matrix);

}  // namespace firn

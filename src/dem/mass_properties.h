#pragma once
/// Exact volume, centre of mass and inertia tensor of convex polyhedra (Schinner 1995 §3.2-3.5; notes §3.3-3.4).
///
/// Implements the thesis's canonical-pyramid decomposition in its corrected form (notes §3.4, errata table §12):
/// every face triangle (E1, E2, E3) and the reference origin O form a pyramid, split at the foot point L of the
/// perpendicular from O onto the face plane into the three sub-pyramids (O, L, E1, E2), (O, L, E2, E3), (O, L, E3, E1)
/// taken *cyclically* with *signed* canonical parameter c (the printed order (E1,E2),(E2,E3),(E1,E3) with unsigned
/// volumes is wrong when L lies outside the triangle), and the inertia of each sub-pyramid is rotated as
/// R I_canon R^T *without* the Steiner term of eq. 3.16 (3.15 is already about the apex, and the apex is the origin).
/// The centre of mass comes from a first pass about an interior point; the inertia from a second pass about the
/// centre of mass, as §3.5 prescribes ("only done once the COM is at (0,0,0)").
#include <glm/glm.hpp>

#include "core/symmetric_eigen.h"
#include "dem/polyhedron.h"

namespace firn::dem {

/// Mass properties of the canonical sub-pyramid P1 = 0, P2 = (a,0,0), P3 = (a,d,0), P4 = (a,b,c) (eq. 3.2, with the
/// OCR's duplicated P3 read as P4), unit density.
struct CanonicalPyramid {
  double volume = 0.0;                ///< a c d / 6 (eq. 3.8), signed with c [m^3].
  glm::dvec3 centroid{0.0};           ///< (3a/4, (b+d)/4, c/4) (eq. 3.10) [m].
  glm::dmat3 inertia_about_apex{0.0}; ///< Eq. 3.15 about P1 (not about the centroid), unit density [m^5].
};

/// Closed forms 3.8, 3.10 and 3.15 for the canonical pyramid; lengths in [m], any signs (polynomial identities).
CanonicalPyramid canonical_pyramid(double a, double b, double c, double d);


/// Mass properties of a homogeneous convex polyhedron, in its body frame.
struct MassProperties {
  double volume = 0.0;                 ///< Volume [m^3].
  double mass = 0.0;                   ///< density * volume [kg].
  glm::dvec3 centre_of_mass{0.0};      ///< Centre of mass in the body frame [m] (eq. 3.11).
  glm::dmat3 inertia{0.0};             ///< Inertia tensor about the centre of mass, body axes [kg m^2] (eq. 2.6).
  glm::dvec3 principal_moments{0.0};   ///< Eigenvalues of `inertia`, ascending [kg m^2].
  glm::dmat3 principal_axes{1.0};      ///< Matching unit principal axes as columns (right-handed) [-].
};

/// Volume, mass, centre of mass and inertia tensor about the centre of mass of `polyhedron` with uniform density
/// `density` [kg/m^3], by the corrected canonical-pyramid decomposition (see the file comment). Exact up to rounding
/// for any convex polyhedron with polygonal faces (faces are fanned into triangles). Throws std::runtime_error if
/// density is not finite and > 0.
MassProperties mass_properties(const Polyhedron& polyhedron, double density);

/// The polyhedron translated so that its centre of mass is the body origin (eq. 2.1; notes §13 "vertices shifted so
/// the COM is at the body origin").
Polyhedron centred_on_centre_of_mass(const Polyhedron& polyhedron);

}  // namespace firn::dem

#pragma once
/// Penetration depth of two intersecting convex polyhedra by the expanding polytope algorithm (EPA; van den Bergen,
/// "Proximity Queries and Penetration Depth Computation on 3D Game Objects", GDC 2001; "Collision Detection in
/// Interactive 3D Environments", 2003, §4.3.8) on A - B with hill-climbing supports, snapped to the exact
/// separating axis (face of A, face of B, or edge pair) that realises the minimum.
#include "dem/penetration.h"
#include "dem/penetration_gjk.h"

namespace firn::dem {

/// Minimum translation distance of A and B from GJK's final simplex (`start.intersecting` must be true). On success
/// fills `out` with separation = -depth [m] (<= 0 up to rounding), the unit normal in B's BODY frame (from A to B)
/// and the feature kind and indices, and returns true. Returns false when EPA cannot certify its answer (A - B too
/// flat to enclose a tetrahedron, a degenerate face, or the iteration cap); the caller then uses the separating-axis
/// scan. Why exact: EPA's polytope lies inside A - B, so its nearest face distance is a lower bound on the depth;
/// when the support point along that face's normal is not beyond it (or repeats a vertex pair: A - B has finitely
/// many), the face lies in a face of A - B and its normal is the optimal axis up to rounding. The axis is then
/// re-evaluated exactly among the face normals and edge-pair cross products at the support vertices of that normal
/// (every axis gives an overlap >= the depth, and the optimal one is among them), so depth and normal match the
/// brute-force separating-axis minimum to rounding.
bool penetration_epa(RelativePair& pair, const GjkResult& start, SeparatingAxis& out);

}  // namespace firn::dem

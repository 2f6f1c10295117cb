/* Binding points and shader constants shared by C++ and GLSL: included by both, so plain #defines only. */
#ifndef FIRN_BINDINGS_H
#define FIRN_BINDINGS_H

/* Work-group size of every 1-D MPM pass (particles or grid nodes per group). */
#define MPM_LOCAL_SIZE 64

/* MPM shader storage buffers (std430). */
#define MPM_BIND_PARTICLES 0  /* Particle[]: x, m, v, V0, F_E, F_P */
#define MPM_BIND_GRID 1       /* GridNode[]: fixed-point mass, momentum, impulse (int32 atomics) */
#define MPM_BIND_GRID_VEL 2   /* GridVelocity[]: float v^n and v^{n+1} per node */
#define MPM_BIND_VELGRAD 3    /* VelocityGradient[]: grad v_p per particle, G2P -> particle update */
#define MPM_BIND_COLLIDERS 4  /* Collider[] */
#define MPM_BIND_MATERIALS 5  /* Material[] */
#define MPM_BIND_STATUS 6     /* MpmStatus: error flags and reductions */

/* MPM uniform buffer (std140). */
#define MPM_BIND_PARAMS 0

/* Render shader storage buffers. */
#define RENDER_BIND_PARTICLES 0 /* same Particle[] buffer as MPM_BIND_PARTICLES, read-only */

/* Collider shapes and boundary conditions (Collider.shape / Collider.boundary). */
#define COLLIDER_PLANE 0
#define COLLIDER_SPHERE 1
#define COLLIDER_BOX 2
#define BOUNDARY_STICKY 0
#define BOUNDARY_SLIP 1
#define BOUNDARY_SEPARATE 2

/* MpmStatus.error_flags bits; MpmStatus.error_quantity holds the first quantity that failed. */
#define MPM_ERROR_MASS_OVERFLOW 1u
#define MPM_ERROR_MOMENTUM_OVERFLOW 2u
#define MPM_ERROR_IMPULSE_OVERFLOW 4u
#define MPM_ERROR_NONFINITE 8u
#define MPM_ERROR_CFL 16u

/* MpmParams.counts.w flag bits. */
#define MPM_FLAG_THESIS_GRADIENT 1u /* reproduce Meyer 2015's B-spline gradient without 1/h (comparison only) */

/* Renderer constants (src/render, shaders/render). */
#define RENDER_MAX_COLOUR_STOPS 8 /* stops of a colour map, evenly spaced over [0, 1] */
#define RENDER_MAX_MATERIALS 8    /* colours of ParticleStyle::material_colours */
#define RENDER_COLOUR_UNIFORM 0   /* ColourMode codes */
#define RENDER_COLOUR_SPEED 1
#define RENDER_COLOUR_SCALAR 2
#define RENDER_COLOUR_MATERIAL 3
#define RENDER_SURFACE_LIT 1u       /* SurfaceVertex.flags bits */
#define RENDER_SURFACE_CHECKER 2u
#define RENDER_SURFACE_ONE_SIDED 4u

#endif

/* Binding points and shader constants shared by C++ and GLSL: included by both, so plain #defines only. */
#ifndef FIRN_BINDINGS_H
#define FIRN_BINDINGS_H

/* GPU exclusive prefix sum (src/gl/scan.h, shaders/common/scan_*.comp), used by the water's and the snow's
   counting sorts. Its buffers are bound by every scan and read by no other pass, so both solvers share them. */
#define SCAN_LOCAL_SIZE 256
#define SCAN_ITEMS 16          /* a scan tile is 256 * 16 = 4096 entries, each invocation owning 16 consecutive */
#define SCAN_BIND_DATA 17      /* uint[]: scanned in place */
#define SCAN_BIND_PARTIALS 18  /* uint[]: per-tile sums of a scan */

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
#define MPM_BIND_STEP 7       /* MpmStep: time, dt, substep and the CFL inputs, written by the step pass */
/* Buffers of the step pass only (shaders/mpm/step.comp); above the SPH range. */
#define MPM_BIND_STEP_MATERIALS 26  /* dvec2[]: lambda0 + 2 mu0 [Pa], rho0 [kg/m^3] per material */
#define MPM_BIND_DISPATCH_ARGS 27   /* uint[]: indirect dispatch arguments of a substep's passes, then a template */
#define MPM_BIND_COLLIDER_POINTS 28 /* dvec4[2 n]: collider point [m] and velocity [m/s] in double */
#define MPM_BIND_AFFINE 29          /* mat3x4[]: APIC affine velocity C_p per particle [1/s] (G2P -> next P2G) */
/* Rigid bodies as moving colliders of the grid update (src/mpm/rigid_colliders.h); above the SPH range. */
#define MPM_BIND_RIGID_BODIES 32    /* RigidBody[]: pose (float), velocity, friction, faces, boundary per body */
#define MPM_BIND_RIGID_PLANES 33    /* vec4[]: face planes of every body, body frame: xyz unit normal, w offset [m] */
#define MPM_BIND_RIGID_IMPULSES 34  /* uint[12 n]: impulse and angular impulse on each body, 64-bit fixed point */
#define MPM_BIND_RIGID_STATE 35     /* RigidState[]: pose and velocity in double, advanced by the step pass */
/* Active blocks of 4 x 4 x 4 grid nodes (shaders/mpm/blocks.glsl): the grid update visits only blocks that
   particle-to-grid touched. After the SPH and coupling bindings (36-47). */
#define MPM_BIND_BLOCK_FLAGS 48     /* uint per block: 1 once listed in this substep */
#define MPM_BIND_BLOCK_LIST 49      /* uint[]: [0] active blocks, then their indices */
#define MPM_BIND_BLOCK_ARGS 50      /* uvec3: indirect dispatch arguments of the grid update over the active blocks */
/* Particles sorted by their stencil (shaders/mpm/cell_sort.comp) for the sorted particle-to-grid (p2g.comp with
   MPM_P2G_SORTED); chunk-local particle indices, like every particle pass. */
#define MPM_BIND_SORT_KEYS 51       /* uint per particle: hashed key of its stencil base node */
#define MPM_BIND_SORT_RANKS 52      /* uint per particle: its rank among the particles of its key */
#define MPM_BIND_SORT_STARTS 53     /* uint[table + 1]: particles per key, scanned in place to first slots */
#define MPM_BIND_SORT_ORDER 54      /* uint per sorted slot: the particle (index in the chunk) */
/* The closed-box energy watchdog's sum (shaders/mpm/energy.comp), after the SPH mesh bindings (55-68). */
#define MPM_BIND_ENERGY 69          /* uvec4: kinetic + potential energy, int64 in (lo, hi) words; z = overflow flag */
#define MPM_BLOCK 4                 /* nodes per block edge: MPM_BLOCK^3 = MPM_LOCAL_SIZE, one work group per block */

/* Width of the frictionless wall layer the grid update keeps inside every face of the MPM grid [grid spacings]
   (shaders/mpm/collide.glsl); the scene loader refuses bodies inside it (scene::kWallCells). */
#define MPM_WALL_CELLS 2

/* MpmStep.flags bits. */
#define MPM_STEP_PENDING 1u  /* a substep ran since the reductions were last folded into the CFL inputs */

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

/* mpm::GpuStatus error bits (GpuErrorRecord.flags; GpuErrorRecord.quantity holds the first quantity that failed). */
#define MPM_ERROR_MASS_OVERFLOW 1u
#define MPM_ERROR_MOMENTUM_OVERFLOW 2u
#define MPM_ERROR_IMPULSE_OVERFLOW 4u
#define MPM_ERROR_NONFINITE 8u
#define MPM_ERROR_CFL 16u
#define MPM_ERROR_RIGID_IMPULSE_OVERFLOW 32u /* a body's impulse sum left the int64 range (index: the grid node) */
#define MPM_ERROR_WINDOW 64u /* a stencil outside the grid window (index: the particle; 0 from window.comp) */

/* Fixed-point scale of the rigid bodies' impulse sums (64-bit, common/fixed64.glsl): 2^-32 N s and N m s per
   integer unit, a range of +-2^31 N s between two reads (mpm::Solver and sph::Solver take_rigid_impulses). */
#define RIGID_IMPULSE_SCALE 4294967296.0
#define MPM_RIGID_IMPULSE_SCALE RIGID_IMPULSE_SCALE

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
/* Screen-space fluid surface (src/render/fluid_surface.h, shaders/render/fluid_*). Depth images hold the eye depth
   -z_view [m] of the nearest splat; RENDER_FLUID_NO_DEPTH marks pixels without fluid. */
#define RENDER_FLUID_NO_DEPTH 0.0
#define RENDER_FLUID_MAX_FILTER_PX 32 /* largest support of the bilateral depth filter [pixels each side] */
#define RENDER_FLUID_UNIT_DEPTH 0     /* texture units of the fluid passes */
#define RENDER_FLUID_UNIT_THICKNESS 1
#define RENDER_FLUID_UNIT_SCENE 2
#define RENDER_FLUID_OUTPUT_SHADED 0  /* FluidSurfaceOutput codes */
#define RENDER_FLUID_OUTPUT_NORMALS 1

/* ---- SPH water (src/sph, shaders/sph) ---- */
/* Work-group sizes: particle passes; radix passes (SPH_RADIX_ITEMS consecutive items per invocation). */
#define SPH_LOCAL_SIZE 64
#define SPH_RADIX_LOCAL_SIZE 256
#define SPH_RADIX_ITEMS 8   /* a radix tile is 256 * 8 = 2048 keys */
#define SPH_RADIX_BITS 4    /* bits per LSD radix pass */
#define SPH_RADIX_BUCKETS 16
/* Hash cells per kernel radius: cell edge h / SPH_CELL_REACH (times 1 + 1/64); the neighbour loop visits
   (2 SPH_CELL_REACH + 1)^2 rows of 2 SPH_CELL_REACH + 1 cells. 1 is faster on llvmpipe (28 against 40 ms per step
   at 6,859 particles): 2 scans 42 % fewer candidates but pays for 25 row lookups instead of 9. */
#ifndef SPH_CELL_REACH
#define SPH_CELL_REACH 1
#endif

/* SPH shader storage buffers (std430); distinct from the MPM and render binding points. */
#define SPH_BIND_PARTICLES 8       /* Particle[] in sorted order (read/write) */
#define SPH_BIND_PARTICLES_OUT 9   /* Particle[] destination of the reorder pass */
#define SPH_BIND_KEYS 10           /* uint hash key per particle, order before the sort */
#define SPH_BIND_ORDER 11          /* uint: sorted slot -> particle index before the sort */
#define SPH_BIND_RANK 12           /* uint: counting sort, rank of a particle within its bucket */
#define SPH_BIND_CELL_START 13     /* uint[T + 1]: first sorted slot of each hash key */
#define SPH_BIND_COLLIDERS 14      /* Collider[] */
#define SPH_BIND_REGIONS 15        /* Region[] (control regions) */
#define SPH_BIND_STATUS 16         /* SphStatus: error flags and reductions */
/* 17, 18: the prefix sum's (SCAN_BIND_*, at the top) */
#define SPH_BIND_RADIX_KEYS_IN 19
#define SPH_BIND_RADIX_VALS_IN 20
#define SPH_BIND_RADIX_KEYS_OUT 21
#define SPH_BIND_RADIX_VALS_OUT 22
#define SPH_BIND_RADIX_HIST 23     /* uint[16 * tiles], digit-major */
#define SPH_BIND_NEIGHBOURS 24     /* uint[]: neighbour lists (tests and diagnostics only) */
#define SPH_BIND_POSITIONS 25      /* vec4[]: position and mass in sorted order, packed for the neighbour loops */
#define SPH_BIND_BOUNDARY 30       /* (after MPM 26-29: solvers never share a binding) BoundaryTerms[] per sorted slot (shaders/sph/boundary.glsl) */
#define SPH_BIND_LOADS 31          /* uint[]: force and torque per solid, 64-bit fixed point (shaders/sph/loads.comp) */
/* Rigid bodies as solids of the water (core/rigid_collider.h, shaders/sph/boundary.glsl); after MPM 32-35. */
#define SPH_BIND_BODIES 36         /* RigidBody[]: float pose, velocity, faces, boundary per body */
#define SPH_BIND_BODY_PLANES 37    /* vec4[]: face planes of every body, body frame: xyz unit normal, w offset [m] */
#define SPH_BIND_BODY_IMPULSES 38  /* uint[12 n]: impulse and angular impulse of the water on each body (fixed point) */
#define SPH_BIND_BODY_STATES 39    /* RigidState[]: pose and velocity in double, advanced by shaders/sph/step.comp */
/* A solid given as a volume fraction on a grid (src/sph/solid_field.h, shaders/sph/solid_field.glsl: the snow as
   the water sees it); after the coupling's 40-43. */
#define SPH_BIND_FIELD_FRACTION 44  /* float[n]: solid volume fraction per grid node [1] */
#define SPH_BIND_FIELD_REACTION 45  /* uint[6 n]: the water's impulse on each node's solid, 64-bit fixed point */
#define SPH_BIND_FIELD_MOTION 70    /* vec4[n]: per grid node the solid's velocity [m/s] and inverse mass [1/kg] */
#define SPH_BIND_NEIGHBOUR_LISTS 47 /* uint[stride n]: per sorted slot the density pass's neighbours (count, entries) */
#define SPH_BIND_PRESSURE_SOLVE 55  /* PressureSolve: DFSPH's iteration state and error sums */
#define SPH_BIND_SOLVER_TERMS 56    /* vec4[] per sorted slot: DFSPH factor [m^2], kappa and running totals [Pa] */
#define SPH_BIND_SOLVE_ARGS 57      /* uvec4[] per chunk of particles: DFSPH's indirect dispatch args (groups, 1, 1) */
#define SPH_BIND_STEP 58            /* SphStep: the running step's dt and index, the time, the folded reductions */
#define SPH_BIND_COLLIDER_POINTS 59 /* dvec4[2 n]: each collider's point at t = 0 and velocity, in double (step.comp) */
/* The surface mesh on the GPU (src/sph/gpu_surface_mesh.h, shaders/sph/mesh*.comp; docs/water.md "Surface mesh"). */
#define SPH_BIND_MESH_GRID 60       /* MeshGrid: the water's box of lattice blocks, the lattice spacing and iso level */
#define SPH_BIND_MESH_BLOCKS 61     /* uint per block of the box: 1 if active, then (scanned) its active index */
#define SPH_BIND_MESH_LIST 62       /* uint per active block: its index in the box */
#define SPH_BIND_MESH_VALUES 63     /* float per lattice point of the active blocks: phi */
#define SPH_BIND_MESH_MASKS 64      /* uint per lattice point: bit d set when its Kuhn edge d crosses the iso level */
#define SPH_BIND_MESH_VERTEX_START 65  /* uint per lattice point: vertex count, then (scanned) its first vertex */
#define SPH_BIND_MESH_TRIANGLE_START 66 /* uint per lattice point: its cube's triangles, then its first triangle */
#define SPH_BIND_MESH_VERTICES 67   /* vec4 per vertex: position [m] */
#define SPH_BIND_MESH_TRIANGLES 68  /* uint[3] per triangle: vertex indices, counter-clockwise from outside */
#define SPH_MESH_BLOCK 8            /* lattice points per block edge */

/* Snow-water coupling (src/app/snow_water_exchange.h, shaders/coupling): a grid with the snow grid's spacing and
   origin, filled by both materials' particles at a coupling interval's end (Bardenhagen et al. 2000 contact). */
#define COUPLING_LOCAL_SIZE 64
#define COUPLING_BIND_PARAMS 40  /* CouplingParams: grid geometry, fixed-point scales, contact constants, counts */
#define COUPLING_BIND_NODES 41   /* uint[COUPLING_NODE_WORDS n]: per-node 64-bit fixed-point sums and touched flag */
#define COUPLING_BIND_LIST 42    /* uint[]: [0] touched-node count, then the touched nodes' indices */
#define COUPLING_BIND_DELTAS 43  /* vec4[2 n]: per node, snow and water velocity change of the contact [m/s] */
#define COUPLING_BIND_FIELD_LIST 46 /* uint[]: [0] count, then the nodes whose snow volume fraction the water sees */
/* Per-node words: channel c (0..12) is the int64 at words 2c, 2c + 1 (low first); word 26 the touched flag. */
#define COUPLING_NODE_WORDS 28
#define COUPLING_SNOW_MASS 0      /* sum w m [kg] */
#define COUPLING_SNOW_MOMENTUM 1  /* 1..3: sum w m v [kg m/s] */
#define COUPLING_SNOW_VOLUME 4    /* sum w V [m^3] */
#define COUPLING_SNOW_GRADIENT 5  /* 5..7: sum m grad_xp w [kg/m]: minus the mass field's gradient */
#define COUPLING_WATER_MASS 8
#define COUPLING_WATER_MOMENTUM 9 /* 9..11 */
#define COUPLING_WATER_VOLUME 12
#define COUPLING_TOUCHED_WORD 26
/* A material takes part at a node with at least 2^20 units of mass, 2^-20 of the largest particle's: below that its
   fixed-point sums (and the normal from them) carry no usable direction. */
#define COUPLING_PRESENT_UNITS 1048576.0

/* SPH uniform buffer (std140). */
#define SPH_BIND_PARAMS 1

/* Fixed-point scales of the SPH's order-independent sums (two's complement int64 in two uint words,
   shaders/common/fixed64.glsl): a value is added as value * scale. */
#define SPH_LOAD_SCALE 16777216.0  /* force and torque on a solid: 2^-24 N, 2^-24 N m (loads.comp, solid_loads) */
#define SPH_SOLVE_ERROR_SCALE 4294967296.0 /* DFSPH's error sums: 2^-32 of a relative density error (PressureSolve) */
/* DFSPH: an average relative error at or below which a solve applies no minimum of corrections (dfsph_check.glsl):
   8 float32 epsilons, about the rounding of a density summed over some 30 neighbours. */
#define SPH_SOLVE_NOISE_FLOOR 9.5367431640625e-7

/* sph::GpuStatus error bits (GpuErrorRecord.flags and .quantity). */
#define SPH_ERROR_NONFINITE 1u
#define SPH_ERROR_CFL 2u
#define SPH_ERROR_DENSITY 4u  /* compression rho / rho0 - 1 above SphSettings::max_compression */
#define SPH_ERROR_BODY_IMPULSE_OVERFLOW 8u /* a rigid body's impulse sum left the int64 range (index: the particle) */
#define SPH_ERROR_FIELD_REACTION_OVERFLOW 16u /* a solid field node's impulse sum left the int64 range */
#define SPH_ERROR_ENERGY 32u  /* kinetic + potential energy of water in a closed tank grew (step.comp's fold) */

/* SphStep.flags bits (sph::GpuStep; the GPU's, set by shaders/sph/step.comp). */
#define SPH_STEP_RUN 1u           /* the running step runs: every step pass returns at once without it */
#define SPH_STEP_REFERENCE 2u     /* energy_start holds the closed-tank energy reference of epoch energy_epoch_seen */
/* SphStep.watch (CPU-written): 1 = check the closed-tank energy growth in the fold. */
/* step.comp's u_mode. */
#define SPH_STEP_BEGIN 0u         /* choose dt, move the clock, colliders and bodies, or run nothing */
#define SPH_STEP_FOLD 1u          /* fold the step's reductions into SphStep, check the energy, reset them */

/* SphParams.flags bits. */
#define SPH_FLAG_LINEAR_EOS 1u   /* Mueller 2003 p = k (rho - rho0) instead of Tait */
#define SPH_FLAG_WALLS 2u        /* the domain box is walled */
#define SPH_FLAG_NO_SLIP_X 4u    /* both x faces are no-slip; axis a uses SPH_FLAG_NO_SLIP_X << a */
#define SPH_FLAG_SOLID_FIELD 32u /* a solid volume-fraction field is set (src/sph/solid_field.h) */
#define SPH_FLAG_DFSPH 64u       /* pressure from DFSPH's two solves (pressure_solve.glsl), not the equation of state */

/* DFSPH solves (sph::Solver::pressure_solve, shaders/sph/dfsph_*.comp): the u_mode uniform. */
#define SPH_SOLVE_DENSITY 0u     /* the constant-density solver: predicted density rho* -> rho0 */
#define SPH_SOLVE_DIVERGENCE 1u  /* the divergence-free solver: D rho / D t -> 0 */
/* Jacobi's relaxation omega of both solves (the factor f_i is omega rho_i^2 / D_i). D_i is the exact diagonal of the
   system, but on a particle lattice with h = 2 s the largest eigenvalue of diag(D)^-1 A is 2.7 for the cubic spline
   (3.6 for poly6's gradient; a 7^3 block, periodic or with free surfaces), so plain Jacobi (omega = 1) lets
   checkerboard modes grow and omega must stay below 2 / 2.7 = 0.74 (docs/water.md "DFSPH"). SPlisHSPlasH's DFSPH
   uses 0.5 too. The lattice's supremum over all wave vectors is 2.82 at h = 2 s and grows with h (7.47 at 3 s), so
   beyond h = 2 s the solver scales omega down (sph::dfsph_relaxation, the shader's u_relaxation). */
#define DFSPH_RELAXATION 0.5
/* DFSPH's step follows the hydrostatic pressure of its water, P = rho0 g H (H its extent along gravity):
   dt <= DFSPH_PRESSURE_STEP_FRACTION 2 / omega, omega^2 = K P / (rho0 s^2) the pressure's stiffness on a
   checkerboard of layers (sph::dfsph_pressure_stiffness), which no solve sees; symplectic Euler is stable for
   omega dt < 2. The fraction leaves room for what the lattice's estimate leaves out: a settled column's gradient
   correction reads up to 3 % above the lattice's, and the water's top layers are pressed above rho0 (docs/water.md
   "The pressure's own step limit"). 3/4: exact in float and double, so that the step pass and the CPU choose the
   same dt. */
#define DFSPH_PRESSURE_STEP_FRACTION 0.75
/* The reset value of a minimum reduced over float bits (SphStatus min_potential_bits): the bits of +infinity. */
#define SPH_NO_MINIMUM_BITS 0x7f800000u
/* The shares of the last step's pressure totals the warm starts apply: all of the density solve's where the water is
   compressed (its pressure holds the weight from step to step; where rho <= rho0 it starts from 0, dfsph_correct.comp
   kappa_of), half of the divergence solve's (as SPlisHSPlasH: an impulse, not a steady state). SPlisHSPlasH keeps
   half of the density solve's too; here half cost a resting column 62.5 density iterations per step against 29.6.
   Both at 1.0 with an error that counted compression only made a resting column gain 12 % of its energy within 12
   steps. */
#define DFSPH_WARM_START_DENSITY 1.0
#define DFSPH_WARM_START_DIVERGENCE 0.5

/* Region.min_action.w action codes (control regions of the SPH thesis, sph-water.md A.4). */
#define SPH_REGION_BOUNDARY 0
#define SPH_REGION_TELEPORT 1
#define SPH_REGION_SHIFT 2
#define SPH_REGION_SET_SPEED 3

#endif

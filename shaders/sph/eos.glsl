// Equations of state. Negative pressures are clamped to zero: a free surface then pulls nothing inwards, which
// avoids the tensile instability of WCSPH (particles clumping where the kernel sum is deficient).
float pressure_of(float rho) {
  float p;
  if (has_flag(SPH_FLAG_LINEAR_EOS)) {
    p = material.x * (rho - rest_density());  // Mueller et al. 2003: k (rho - rho0), k = c^2
  } else {
    float ratio = rho / rest_density();  // Tait (Becker & Teschner 2007): B ((rho/rho0)^7 - 1), B = rho0 c^2 / 7
    float r2 = ratio * ratio;
    p = material.x * (r2 * r2 * r2 * ratio - 1.0);
  }
  return max(p, 0.0);
}

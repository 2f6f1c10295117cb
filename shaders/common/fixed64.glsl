// Order-independent sums: a float value added to a two's complement 64-bit fixed-point accumulator held in two uint
// words (low, high) with carry. Integer addition is associative, so the result does not depend on the order of the
// GPU's atomic additions. Used by the SPH loads and energy (shaders/sph) and the MPM rigid-body impulses
// (shaders/mpm/rigid.glsl); the C++ side reads the words as int64 (low word first).

// The two words of round(x) as a two's complement int64; x finite with |x| < 2^63. The split works on |x|, where
// every step is exact in float (a / 2^32 and floor are exact, and a - hi 2^32 is a multiple of a's ulp below 2^32),
// and negates in integers: splitting a negative x directly would round x + 2^32 to float's 256-unit spacing there.
uvec2 fixed64_words(float x) {
  float a = round(abs(x));
  float hi = floor(a / 4294967296.0);
  uint lo = uint(a - hi * 4294967296.0);
  uint h = uint(hi);
  if (x < 0.0) {
    lo = ~lo + 1u;
    h = ~h + (lo == 0u ? 1u : 0u);
  }
  return uvec2(lo, h);
}

// The two's complement int64 in the words (lo, hi) as a double: exact below 2^53 in magnitude, correctly rounded
// above (the product is exact and the sum rounds once), as the C++ side's double(int64).
double fixed64_value(uint lo, uint hi) { return double(int(hi)) * 4294967296.0LF + double(lo); }

// Adds X_SCALED (the value times the fixed-point scale, |X_SCALED| < 2^63) to the int64 in words LO, HI.
#define ATOMIC_ADD_FIXED64(LO, HI, X_SCALED)                      \
  {                                                               \
    uvec2 w_ = fixed64_words(X_SCALED);                           \
    uint old_ = atomicAdd(LO, w_.x);                              \
    atomicAdd(HI, w_.y + (old_ + w_.x < old_ ? 1u : 0u));         \
  }

// Adds the int64 in the words W (uvec2: low, high) to the int64 in words LO, HI, and runs the statement ON_OVERFLOW
// when the sum leaves the int64 range (the high word's signed addition overflows).
#define ATOMIC_ADD_INT64_CHECKED(LO, HI, W, ON_OVERFLOW)                                           \
  {                                                                                                \
    uvec2 a_ = (W);                                                                                \
    uint lo_ = atomicAdd(LO, a_.x);                                                                \
    int add_ = int(a_.y + (lo_ + a_.x < lo_ ? 1u : 0u));                                           \
    int prev_ = int(atomicAdd(HI, uint(add_)));                                                    \
    if ((add_ > 0 && prev_ > 2147483647 - add_) || (add_ < 0 && prev_ < -2147483647 - 1 - add_)) { \
      ON_OVERFLOW;                                                                                 \
    }                                                                                              \
  }

// As ATOMIC_ADD_FIXED64, but runs the statement ON_OVERFLOW instead of wrapping: when X_SCALED is not finite or
// |X_SCALED| >= 2^62, or when the sum leaves the int64 range. NaN is tested by name: NVIDIA's compiler turns
// !(a < b) into a >= b, which is false for NaN (seen 2026-11-27).
#define ATOMIC_ADD_FIXED64_CHECKED(LO, HI, X_SCALED, ON_OVERFLOW)           \
  {                                                                         \
    float x_ = (X_SCALED);                                                  \
    if (isnan(x_) || abs(x_) >= 4611686018427387904.0) {                    \
      ON_OVERFLOW;                                                          \
    } else {                                                                \
      ATOMIC_ADD_INT64_CHECKED(LO, HI, fixed64_words(x_), ON_OVERFLOW)      \
    }                                                                       \
  }

// Order-independent sums: a float value added to a two's complement 64-bit fixed-point accumulator held in two uint
// words (low, high) with carry. Integer addition is associative, so the result does not depend on the order of the
// GPU's atomic additions. X_SCALED is the value times the fixed-point scale (|X_SCALED| < 2^55 or so, float range).
#define ATOMIC_ADD_FIXED64(LO, HI, X_SCALED)                    \
  {                                                             \
    float x_ = (X_SCALED);                                      \
    float hi_ = floor(x_ / 4294967296.0);                       \
    uint lo_ = uint(x_ - hi_ * 4294967296.0);                   \
    uint old_ = atomicAdd(LO, lo_);                             \
    atomicAdd(HI, uint(int(hi_)) + (old_ + lo_ < old_ ? 1u : 0u)); \
  }

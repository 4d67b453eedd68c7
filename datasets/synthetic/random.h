// Portable seeded randomness for the synthetic scene: the same seed gives the same scene on
// every platform (std:: distributions are implementation-defined, so they are not used).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace proj::synthetic {

// SplitMix64 (Steele, Lea, Flood 2014): a small, well-mixed 64-bit generator.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1).
  double Uniform() { return static_cast<double>(Next() >> 11) * (1.0 / 9007199254740992.0); }
  double Uniform(double low, double high) { return low + (high - low) * Uniform(); }
  // Log-uniform in [low, high], low > 0.
  double LogUniform(double low, double high) {
    return std::exp(Uniform(std::log(low), std::log(high)));
  }
  // Uniform integer in [0, n).
  int Index(int n) { return static_cast<int>(Uniform() * n); }
  // Standard normal (Box-Muller, one of the pair).
  double Gaussian() {
    const double u = std::max(Uniform(), 1e-300);
    return std::sqrt(-2 * std::log(u)) * std::cos(2 * 3.14159265358979323846 * Uniform());
  }

 private:
  uint64_t state_;
};

// Stateless hash of a lattice point and a seed, for value noise.
inline uint32_t HashLattice(int32_t x, int32_t y, uint64_t seed) {
  uint64_t h = seed ^ (static_cast<uint64_t>(static_cast<uint32_t>(x)) * 0x9E3779B97F4A7C15ull) ^
               (static_cast<uint64_t>(static_cast<uint32_t>(y)) * 0xC2B2AE3D27D4EB4Full);
  h ^= h >> 33;
  h *= 0xFF51AFD7ED558CCDull;
  h ^= h >> 33;
  h *= 0xC4CEB9FE1A85EC53ull;
  h ^= h >> 33;
  return static_cast<uint32_t>(h);
}

// Derives an independent seed for sub-stream `index` of `seed`.
inline uint64_t SubSeed(uint64_t seed, uint64_t index) {
  Rng rng(seed ^ (index * 0xD1B54A32D192ED03ull + 0x8CB92BA72F3D8DD7ull));
  return rng.Next();
}

}  // namespace proj::synthetic

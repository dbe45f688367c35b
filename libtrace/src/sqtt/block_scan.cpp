// The decoder's block pre-pass (block_scan.hpp): a portable kernel and an AVX2 one.

#include "wavescope/trace/sqtt/block_scan.hpp"

#include <array>
#include <cstring>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define WAVESCOPE_SCAN_AVX2 1
#include <immintrin.h>
#endif

namespace wavescope::trace::sqtt {
namespace {

// A family's size of a packet by its low byte, and the same table split by nibble for SIMD
// lookups (which index 16 entries at a time): for most low nibbles the size does not depend on
// the high nibble (`by_low`); the few that do have a row indexed by the high nibble.
struct SizeTables {
  std::array<std::uint8_t, 256> by_byte{};
  alignas(32) std::uint8_t by_low[32] = {};  // twice, once per 128-bit lane
  unsigned split_count = 0;
  std::uint8_t split_low[16] = {};
  alignas(32) std::uint8_t split_rows[16][32] = {};
};

SizeTables make_size_tables(Family family) {
  SizeTables t;
  for (unsigned b = 0; b < 256; ++b) t.by_byte[b] = packet_spec(type_table(family)[b]).size_nibbles;
  for (unsigned low = 0; low < 16; ++low) {
    t.by_low[low] = t.by_low[low + 16] = t.by_byte[low];
    bool split = false;
    for (unsigned high = 1; high < 16; ++high)
      split = split || t.by_byte[high << 4 | low] != t.by_byte[low];
    if (!split) continue;
    t.split_low[t.split_count] = static_cast<std::uint8_t>(low);
    for (unsigned high = 0; high < 16; ++high)
      t.split_rows[t.split_count][high] = t.split_rows[t.split_count][high + 16] =
          t.by_byte[high << 4 | low];
    ++t.split_count;
  }
  return t;
}

const SizeTables &size_tables(Family family) {
  static const std::array<SizeTables, 3> tables = {make_size_tables(Family::Rdna3),
                                                   make_size_tables(Family::Rdna4),
                                                   make_size_tables(Family::Cdna)};
  return tables[static_cast<std::size_t>(family)];
}

// How many shifted bytes a scan of `count` nibbles provides: a packet at nibble count - 1 reads 9.
unsigned shifted_needed(unsigned count) { return (count - 1) / 2 + 9; }
// How many bytes of the block a scan may read.
unsigned readable_bytes(unsigned count) { return (count - 1) / 2 + 16; }

// Byte by byte from input byte `k` on: one shifted byte and two sizes each.
void scan_portable(const SizeTables &t, const std::uint8_t *block, unsigned k, unsigned count,
                   BlockScan &out) {
  for (const unsigned end = shifted_needed(count); k < end; ++k) {
    const auto odd = static_cast<std::uint8_t>((block[k] >> 4) | (block[k + 1] << 4));
    out.shifted[k] = odd;
    out.sizes[2 * k] = t.by_byte[block[k]];
    out.sizes[2 * k + 1] = t.by_byte[odd];
  }
}

#ifdef WAVESCOPE_SCAN_AVX2
// The split rows of a family held in registers: kRows of them (the tables' split_count), or
// any number read from memory when kRows is kAnyRows.
constexpr unsigned kAnyRows = ~0u;

template <unsigned kRows> struct SplitRowsAvx2 {
  __m256i low[kRows > 0 ? kRows : 1];  // (a zero-size array is not standard C++)
  __m256i row[kRows > 0 ? kRows : 1];
  __attribute__((target("avx2"))) explicit SplitRowsAvx2(const SizeTables &t) {
    for (unsigned i = 0; i < kRows; ++i) {
      low[i] = _mm256_set1_epi8(char(t.split_low[i]));
      row[i] = _mm256_load_si256((const __m256i *)t.split_rows[i]);
    }
  }
  __attribute__((target("avx2"))) __m256i apply(const SizeTables &, __m256i sizes,
                                                __m256i low_nibbles, __m256i high_nibbles) const {
    for (unsigned i = 0; i < kRows; ++i)
      sizes = _mm256_blendv_epi8(sizes, _mm256_shuffle_epi8(row[i], high_nibbles),
                                 _mm256_cmpeq_epi8(low_nibbles, low[i]));
    return sizes;
  }
};

template <> struct SplitRowsAvx2<kAnyRows> {
  explicit SplitRowsAvx2(const SizeTables &) {}
  __attribute__((target("avx2"))) __m256i apply(const SizeTables &t, __m256i sizes,
                                                __m256i low_nibbles, __m256i high_nibbles) const {
    for (unsigned i = 0; i < t.split_count; ++i) {
      const __m256i row = _mm256_load_si256((const __m256i *)t.split_rows[i]);
      sizes = _mm256_blendv_epi8(
          sizes, _mm256_shuffle_epi8(row, high_nibbles),
          _mm256_cmpeq_epi8(low_nibbles, _mm256_set1_epi8(char(t.split_low[i]))));
    }
    return sizes;
  }
};

// 32 input bytes per step: 64 sizes and 32 shifted bytes; the rest byte by byte.
template <unsigned kRows>
__attribute__((target("avx2"))) void scan_avx2(const SizeTables &t, const std::uint8_t *block,
                                               unsigned count, BlockScan &out) {
  const __m256i nibble = _mm256_set1_epi8(0x0F);
  const __m256i by_low = _mm256_load_si256((const __m256i *)t.by_low);
  const SplitRowsAvx2<kRows> split(t);
  // The sizes of the 32 packets whose low bytes are `x`.
  const auto sizes_of = [&](__m256i x) __attribute__((target("avx2"))) {
    const __m256i low = _mm256_and_si256(x, nibble);
    const __m256i high = _mm256_and_si256(_mm256_srli_epi16(x, 4), nibble);
    return split.apply(t, _mm256_shuffle_epi8(by_low, low), low, high);
  };
  const unsigned readable = readable_bytes(count), needed = shifted_needed(count);
  unsigned k = 0;
  for (; k + 33 <= readable && k < needed; k += 32) {
    const __m256i even = _mm256_loadu_si256((const __m256i *)(block + k));
    const __m256i next = _mm256_loadu_si256((const __m256i *)(block + k + 1));
    // Byte j: the high nibble of byte j, then the low nibble of byte j + 1 (16-bit shifts, so
    // mask the bits that crossed a byte).
    const __m256i odd = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(even, 4), nibble),
                                        _mm256_andnot_si256(nibble, _mm256_slli_epi16(next, 4)));
    _mm256_storeu_si256((__m256i *)(out.shifted + k), odd);
    const __m256i even_sizes = sizes_of(even), odd_sizes = sizes_of(odd);
    // Interleave even and odd nibbles; unpack works per 128-bit lane, so put the lanes in order.
    const __m256i a = _mm256_unpacklo_epi8(even_sizes, odd_sizes);
    const __m256i b = _mm256_unpackhi_epi8(even_sizes, odd_sizes);
    _mm256_storeu_si256((__m256i *)(out.sizes + 2 * k), _mm256_permute2x128_si256(a, b, 0x20));
    _mm256_storeu_si256((__m256i *)(out.sizes + 2 * k + 32), _mm256_permute2x128_si256(a, b, 0x31));
  }
  scan_portable(t, block, k, count, out);
}
#endif

using ScanFunction = void (*)(const SizeTables &, const std::uint8_t *, unsigned, BlockScan &);

void scan_portable_block(const SizeTables &t, const std::uint8_t *block, unsigned count,
                         BlockScan &out) {
  scan_portable(t, block, 0, count, out);
}

// The scan of `kernel` for the tables `t`: with AVX2, specialised for their number of split
// rows (every family has at most 4).
ScanFunction scan_function(ScanKernel kernel, const SizeTables &t) {
#ifdef WAVESCOPE_SCAN_AVX2
  if (kernel == ScanKernel::Avx2) {
    switch (t.split_count) {
    case 0: return scan_avx2<0>;
    case 1: return scan_avx2<1>;
    case 2: return scan_avx2<2>;
    case 3: return scan_avx2<3>;
    case 4: return scan_avx2<4>;
    default: return scan_avx2<kAnyRows>;
    }
  }
#endif
  (void)kernel;
  (void)t;
  return scan_portable_block;
}

}  // namespace

bool scan_kernel_available(ScanKernel kernel) {
  switch (kernel) {
  case ScanKernel::Portable: return true;
  case ScanKernel::Avx2:
#ifdef WAVESCOPE_SCAN_AVX2
    return __builtin_cpu_supports("avx2");
#else
    return false;
#endif
  }
  return false;
}

ScanKernel best_scan_kernel() {
  static const ScanKernel best =
      scan_kernel_available(ScanKernel::Avx2) ? ScanKernel::Avx2 : ScanKernel::Portable;
  return best;
}

void scan_block(ScanKernel kernel, Family family, const std::uint8_t *block, unsigned count,
                BlockScan &out) {
  if (count == 0) return;
  if (!scan_kernel_available(kernel)) kernel = ScanKernel::Portable;
  const SizeTables &t = size_tables(family);
  scan_function(kernel, t)(t, block, count, out);
}

void scan_block(Family family, const std::uint8_t *block, unsigned count, BlockScan &out) {
  // The best scan per family, chosen once.
  static const auto best = [] {
    std::array<ScanFunction, 3> f{};
    for (std::size_t i = 0; i < f.size(); ++i)
      f[i] = scan_function(best_scan_kernel(), size_tables(static_cast<Family>(i)));
    return f;
  }();
  if (count != 0) best[static_cast<std::size_t>(family)](size_tables(family), block, count, out);
}

}  // namespace wavescope::trace::sqtt

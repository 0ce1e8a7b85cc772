/// Two operations timed by interleaved repetitions.
struct Comparison {
  let library: Timing
  let raw: Timing
  /// The median of the pairs' ratios, each library repetition over the raw one run next
  /// to it: a busy spell of the machine that slows one pair moves one ratio of several,
  /// where it could move one side's median alone.
  let pairedRatio: Double

  /// The timings per key of operations on `keys` keys; the ratio is unchanged.
  func perKey(of keys: Int) -> Comparison {
    Comparison(
      library: library.perKey(of: keys), raw: raw.perKey(of: keys), pairedRatio: pairedRatio)
  }
}

import PropertyListCodec

/// What the process makes once for a stored name and keeps for its life: the key path that
/// stands for the name in the Observation framework, and a number that indexes records kept
/// per suite.
///
/// Numbers are given in the order names are first used, the same in every suite, so a
/// suite's record of a name is an array element rather than a hash table's entry: a Foundation
/// instance's every read and write passes through such a record, beside Foundation's own
/// lookup, and a table hashing the name made that path too long to stay in the processor's
/// instruction cache (the article "Performance").
@usableFromInline
struct KeyIdentity: Sendable {
  /// The key path that stands for the name in ``TrackedKeys``.
  @usableFromInline let path: TrackedKeys.Path
  /// From 0, in the order names are first used.
  @usableFromInline let number: Int

  private static let made = Lock<[String: KeyIdentity]>([:])

  /// The identity of `name`, made on first use. Cost: one lock and lookup; for a new name,
  /// a key path and a table entry kept for the process's life, and a number that makes
  /// every suite reading the name keep records up to it (``SeenValues``).
  static func of(_ name: String) -> KeyIdentity {
    made.withLock { made in
      if let identity = made[name] { return identity }
      let identity = KeyIdentity(path: \TrackedKeys.[key: name], number: made.count)
      made[name] = identity
      return identity
    }
  }

  /// The identity of `name` if one was made; a name without one has no record anywhere.
  /// Cost: one lock and lookup.
  static func existing(_ name: String) -> KeyIdentity? {
    made.withLock { $0[name] }
  }
}

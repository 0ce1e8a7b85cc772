import Foundation

extension UserDefaults.Key {
  /// The value stored under this key in `defaults`, or its default: what a property
  /// declared with `@DefaultEntry` reads.
  ///
  /// Same cost as `defaults[key]` plus one uncontended lock and unlock (about 20 ns on
  /// Linux: the count of installed probes), which lets the key-path wrapper learn the
  /// entry's key and default by running its getter (see `EntryProbe`).
  ///
  /// - Parameters:
  ///   - defaults: The store to read from.
  /// - Returns: The stored value, or the key's default when nothing readable is stored.
  ///
  /// `let count = UserDefaults.launchCountKey.value(in: .standard)`
  @inlinable
  public func value(in defaults: UserDefaults) -> Value {
    if EntryProbe.isInstalledAnywhere, let probed = valueUnderProbe() { return probed }
    return defaults.value(descriptor)
  }

  /// Stores `value` under this key in `defaults` (`nil` on an optional key removes it):
  /// what a property declared with `@DefaultEntry` writes.
  ///
  /// Cost: an encode and the store's write; a value that cannot be stored is reported and
  /// nothing is written.
  ///
  /// - Parameters:
  ///   - value: The value to store.
  ///   - defaults: The store to write to.
  ///
  /// `UserDefaults.launchCountKey.store(3, in: .standard)`
  @inlinable
  public func store(_ value: Value, in defaults: UserDefaults) {
    if EntryProbe.isInstalledAnywhere, recordUnderProbe() { return }
    defaults.access.write(value, for: descriptor)
  }

  /// The default, when the caller's task probes entries and wants them to read as absent.
  @usableFromInline
  func valueUnderProbe() -> Value? {
    guard let probe = EntryProbe.current else { return nil }
    probe.record(name)
    return probe.pretendsAbsent ? defaultValue : nil
  }

  /// Whether the caller's task probes entries (the write is then only recorded).
  @usableFromInline
  func recordUnderProbe() -> Bool {
    guard let probe = EntryProbe.current else { return false }
    probe.record(name)
    return true
  }
}

import Foundation

extension UserDefaults.Key {
  /// The value in `defaults`, or the default: what a `@DefaultEntry` property reads. Cost:
  /// `defaults[key]` plus a check for entry probes, by which the key-path wrapper learns
  /// the entry's key.
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

  /// Stores `value` (`nil` removes): what a `@DefaultEntry` property writes. Cost: an
  /// encode and the write; a value that cannot be stored is reported, not written.
  ///
  /// - Parameters:
  ///   - value: The value to store.
  ///   - defaults: The store to write to.
  ///
  /// `UserDefaults.launchCountKey.store(3, in: .standard)`
  @inlinable
  public func store(_ value: Value, in defaults: UserDefaults) {
    if EntryProbe.isInstalledAnywhere, recordUnderProbe() { return }
    defaults.write(value, for: descriptor)
  }

  @usableFromInline
  func valueUnderProbe() -> Value? {
    guard let probe = EntryProbe.current else { return nil }
    probe.record(name)
    return probe.pretendsAbsent ? defaultValue : nil
  }

  /// Under a probe the write is only recorded.
  @usableFromInline
  func recordUnderProbe() -> Bool {
    guard let probe = EntryProbe.current else { return false }
    probe.record(name)
    return true
  }
}

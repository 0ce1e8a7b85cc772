import Foundation

extension UserDefaults.Key {
  /// The value stored under this key in `defaults`, or its default: what a property
  /// declared with `@DefaultEntry` reads.
  ///
  /// Same cost as `defaults[key]` plus one task-local read, which lets the key-path
  /// wrapper learn the entry's key and default by running its getter.
  public func value(in defaults: UserDefaults) -> Value {
    if let probe = EntryProbe.current {
      probe.record(name)
      if probe.pretendsAbsent { return defaultValue }
    }
    return defaults.access.value(descriptor)
  }

  /// Stores `value` under this key in `defaults` (`nil` on an optional key removes it):
  /// what a property declared with `@DefaultEntry` writes.
  public func store(_ value: Value, in defaults: UserDefaults) {
    if let probe = EntryProbe.current {
      probe.record(name)
      return
    }
    defaults.access.write(value, for: descriptor)
  }
}

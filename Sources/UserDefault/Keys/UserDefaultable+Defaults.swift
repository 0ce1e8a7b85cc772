import Foundation

extension UserDefaultable {
  /// Reads the value stored under `key`, or `nil` when nothing is stored or the stored
  /// value cannot be read (which is reported to ``DefaultsDiagnostics``).
  ///
  /// Goes through the same bridging, cache and observation as typed keys. Cost: one
  /// lookup, plus a decode when the stored value changed since the last read.
  ///
  /// - Parameters:
  ///   - key: The name the value is stored under.
  ///   - defaults: The store to read from.
  ///
  /// `let saved = Celsius(withKey: "temperature", in: .standard)`
  public init?(withKey key: String, in defaults: UserDefaults) {
    if let probe = EntryProbe.current {
      probe.record(key)
      if probe.pretendsAbsent { return nil }
    }
    guard let stored = defaults.read(KeyDescriptor<Self>.native(key)), let value = stored
    else { return nil }
    self = value
  }

  /// Stores the value under `key`; an optional `nil` removes it.
  ///
  /// Cost: an encode, then the store's write (it tells observers and schedules saving). A
  /// value that cannot be stored, or an invalid name, is reported and nothing is written.
  ///
  /// - Parameters:
  ///   - defaults: The store to write to.
  ///   - key: The name to store the value under.
  ///
  /// `Celsius(storableValue: 21.5)!.store(in: .standard, withKey: "temperature")`
  public func store(in defaults: UserDefaults, withKey key: String) {
    if let probe = EntryProbe.current {
      probe.record(key)
      return
    }
    defaults.write(self, for: KeyDescriptor<Self>.native(key))
  }
}

import Foundation

extension UserDefaults {
  /// The value stored under `name`, read as `type` through the library's bridging.
  ///
  /// For code that names keys at run time; typed keys are the checked form of this. Cost:
  /// a lookup plus, when the stored value changed since the last read, one decode.
  ///
  /// - Parameters:
  ///   - type: The type to read the value as, spelled as an optional (`Theme?.self`).
  ///   - name: The stored name.
  /// - Returns: The value, or `nil` when nothing readable is stored (an unreadable value is
  ///   reported).
  ///
  /// `let theme = defaults.value(Theme?.self, forKey: "theme")`
  public func value<Value>(_ type: Value?.Type, forKey name: String) -> Value? {
    read(KeyDescriptor<Value?>(name: name, bridge: .shared, defaultValue: .constant(nil)))
      ?? nil
  }

  /// Stores `value` through the library's bridging (`nil` removes); reports a refusal.
  package func set<Value>(_ value: Value, as type: Value.Type, forKey name: String) {
    access.write(
      value, for: KeyDescriptor(name: name, bridge: .shared, defaultValue: .constant(value)))
  }

  /// Stores a property-list value (`Any`, `[Any]`, `[String: Any]`…) after checking it;
  /// `nil` removes. Where `set(_:forKey:)` would crash on Linux, this refuses.
  ///
  /// Cost: the check walks the whole value, then the store's write.
  ///
  /// - Parameters:
  ///   - value: A property list, or `nil` to remove the stored value.
  ///   - name: The stored name.
  /// - Throws: ``DefaultsError`` (and writes nothing) when any part of `value` is not a
  ///   property list, or `name` is not a valid key name.
  ///
  /// `try defaults.store(["light", "dark"], forKey: "themes")`
  public func store(_ value: Any?, forKey name: String) throws(DefaultsError) {
    try access.writeObject(value, forName: name)
  }

  /// ``store(_:forKey:)`` that reports a refusal instead of throwing.
  package func storeReportingErrors(_ value: Any?, forKey name: String) {
    backend.storeReportingErrors(value, forName: name)
  }

  /// Removes the stored value under `name` and tells the library's observers.
  ///
  /// - Parameters:
  ///   - name: The stored name.
  ///
  /// `defaults.removeValue(forKey: "theme")`
  public func removeValue(forKey name: String) {
    access.remove(name)
  }
}

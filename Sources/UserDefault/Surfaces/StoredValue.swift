import Foundation

/// The projected value (`$name`) of the library's property wrappers: the stored entry.
///
/// ```swift
/// @UserDefaultsWrapper(key: "FirstName", default: "John") var firstName
/// $firstName.key              // "FirstName"
/// $firstName.removeObject()   // firstName reads "John" again
/// ```
public struct StoredValue<Value> {
  /// The store the entry lives in.
  public let defaults: UserDefaults
  let name: () -> String
  let read: () -> Value
  let readDefault: () -> Value
  let descriptor: () -> KeyDescriptor<Value>

  /// The name the value is stored under.
  public var key: String { name() }

  /// The current value, or the default when nothing readable is stored.
  public var value: Value { read() }

  /// The value read when nothing is stored (a computed default is evaluated now).
  public var defaultValue: Value { readDefault() }

  /// Whether any domain of the search list holds a value (registered defaults included).
  public var hasStoredValue: Bool { defaults.access.hasStoredValue(key) }

  /// Removes the stored value, so the default is read again. Cost: the store's write.
  ///
  /// `$firstName.removeObject()`
  public func removeObject() {
    defaults.access.remove(key)
  }

  /// Removes the stored value; the same as ``removeObject()``.
  ///
  /// `$firstName.reset()`
  public func reset() {
    removeObject()
  }

  /// Removes the stored value; the same as ``removeObject()``.
  ///
  /// `$firstName.remove()`
  public func remove() {
    removeObject()
  }
}

extension StoredValue where Value: Equatable {
  /// Whether the value equals the default; true whenever nothing readable is stored.
  public var isDefaultValue: Bool {
    guard defaults.read(descriptor()) != nil else { return true }
    return value == defaultValue
  }
}

extension StoredValue {
  init(defaults: UserDefaults, key: KeyDescriptor<Value>) {
    self.init(
      defaults: defaults, name: { key.name }, read: { defaults.value(key) },
      readDefault: { key.defaultValue.value }, descriptor: { key })
  }

  /// An entry's key and default are learned by running its getter.
  init(defaults: UserDefaults, entry keyPath: KeyPath<UserDefaults, Value>) {
    let name = { EntryProbe.key(of: keyPath, in: defaults) }
    let readDefault = { EntryProbe.defaultValue(of: keyPath, in: defaults) }
    self.init(
      defaults: defaults, name: name, read: { defaults[keyPath: keyPath] },
      readDefault: readDefault,
      descriptor: {
        KeyDescriptor(name: name(), bridge: .shared, defaultValue: .constant(readDefault()))
      })
  }
}

extension StoredValue where Value: Sendable {
  /// Calls `callback` after each change of this value; see `UserDefaults.observe(_:initial:_:)`.
  ///
  /// - Parameters:
  ///   - initial: Whether to call `callback` once now, with the current value.
  ///   - callback: Given the value before and after, on the writing thread.
  /// - Returns: The registration; the callback stops when it is cancelled or released.
  ///
  /// `let observation = $firstName.observe { change in print(change.newValue) }`
  public func observe(
    initial: Bool = false,
    _ callback: @escaping @Sendable (UserDefaults.KeyChange<Value>) -> Void
  ) -> DefaultsObservation {
    defaults.observe(descriptor(), initial: initial, callback)
  }

  /// The current value (if `initial`), then each new value; see `UserDefaults.updates`.
  ///
  /// - Parameters:
  ///   - initial: Whether the sequence starts with the current value.
  /// - Returns: The values; buffered, ends when the consuming task is cancelled.
  ///
  /// `for await name in $firstName.updates() { print(name) }`
  public func updates(initial: Bool = true) -> AsyncStream<Value> {
    defaults.updates(descriptor(), initial: initial)
  }
}

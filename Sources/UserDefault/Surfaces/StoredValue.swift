import Foundation

/// The projected value (`$name`) of every property wrapper of the library: the stored
/// entry behind the property.
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

  /// Whether a value is stored in any domain of the search list (a launch argument, the
  /// suite's file, a system-wide or global file, registered defaults).
  public var hasStoredValue: Bool { defaults.access.hasStoredValue(key) }

  /// Removes the stored value, so the property reads its default again. Cost: the store's
  /// write (observers are told, saving is scheduled).
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
  /// Whether the current value equals the default: true whenever nothing readable is
  /// stored, even for a computed default that differs on each read.
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

  /// An entry's key and default are learned by running its getter (``EntryProbe``).
  init(defaults: UserDefaults, entry keyPath: KeyPath<UserDefaults, Value>) {
    let name = { EntryProbe.key(of: keyPath, in: defaults) }
    let readDefault = { EntryProbe.defaultValue(of: keyPath, in: defaults) }
    self.init(
      defaults: defaults, name: name, read: { defaults[keyPath: keyPath] },
      readDefault: readDefault,
      descriptor: {
        // Entries store through their type's shared bridge.
        KeyDescriptor(name: name(), bridge: .shared, defaultValue: .constant(readDefault()))
      })
  }
}

extension StoredValue where Value: Sendable {
  /// Calls `callback` after each change of this entry's value; see
  /// `UserDefaults.observe(_:initial:_:)`.
  ///
  /// - Parameters:
  ///   - initial: Whether to call `callback` once now, with the current value as both old
  ///     and new.
  ///   - callback: Called on the writing thread, outside the library's locks, with the
  ///     value before and after the change.
  /// - Returns: The registration; the callback stops when it is cancelled or released.
  ///
  /// `let observation = $firstName.observe { change in print(change.newValue) }`
  public func observe(
    initial: Bool = false,
    _ callback: @escaping @Sendable (UserDefaults.KeyChange<Value>) -> Void
  ) -> DefaultsObservation {
    defaults.observe(descriptor(), initial: initial, callback)
  }

  /// The current value (unless `initial` is false), then each new value; see
  /// `UserDefaults.updates(_:initial:)`.
  ///
  /// - Parameters:
  ///   - initial: Whether the sequence starts with the current value.
  /// - Returns: A sequence that buffers every value not yet consumed and stops listening
  ///   when the consuming task is cancelled.
  ///
  /// `for await name in $firstName.updates() { print(name) }`
  public func updates(initial: Bool = true) -> AsyncStream<Value> {
    defaults.updates(descriptor(), initial: initial)
  }
}

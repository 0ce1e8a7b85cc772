/// One stored value's name, bridge and default: every surface reduces to one, so none
/// encodes, caches or notifies on its own.
@usableFromInline
struct KeyDescriptor<Value> {
  @usableFromInline let name: String
  @usableFromInline let bridge: ValueBridge<Value>
  @usableFromInline let defaultValue: DefaultValue<Value>
  /// Whether the name can be stored; an invalid key refuses writes (see ``KeyName``).
  @usableFromInline let isValidName: Bool
  /// The name's key path in the Observation framework and number, looked up once.
  @usableFromInline let identity: KeyIdentity

  init(name: String, bridge: ValueBridge<Value>, defaultValue: DefaultValue<Value>) {
    self.name = name
    self.bridge = bridge
    self.defaultValue = defaultValue
    self.isValidName = KeyName.problem(with: name) == nil
    self.identity = KeyIdentity.of(name)
  }

  /// What `value` is stored as (`nil` removes): the check and coding of every typed write.
  /// - Throws: `.invalidKey` for a name no file can hold, else what the bridge throws.
  @inlinable
  func storedForm(of value: Value) throws(DefaultsError) -> Any? {
    guard isValidName else { throw invalidNameError() }
    // No call through the coding's existential for what it would hand back unchanged.
    if bridge.writesValueItself { return value }
    return try bridge.encode(value)
  }

  @usableFromInline
  func invalidNameError() -> DefaultsError {
    DefaultsError(.invalidKey, KeyName.problem(with: name) ?? name)
  }

  /// Checks the name and registers a wrapper's declaration in `defaults`'s suite.
  func declare(in defaults: UserDefaults, declaredBy: String) {
    let suite = defaults.access.suite.name
    KeyName.validate(name, suite: suite)
    KeyRegistry.register(
      name: name, suite: suite ?? "standard", valueType: Value.self, declaredBy: declaredBy,
      defaultValue: defaultValue.summary)
  }

  /// A descriptor for the `UserDefaultable` helpers, which carry no default of their own.
  static func native(_ name: String) -> KeyDescriptor<Value?> where Value: UserDefaultable {
    KeyDescriptor<Value?>(
      name: name, bridge: .native(), defaultValue: .constant(nil))
  }
}

extension KeyDescriptor: Sendable where Value: Sendable {}

import PropertyListCodec

/// The value a key reads as when nothing (readable) is stored.
@usableFromInline
enum DefaultValue<Value> {
  /// A value fixed when the key is made.
  case constant(Value)
  /// A value computed on every read that finds nothing stored, never at key creation.
  case computed(@Sendable () -> Value)

  @inlinable
  var value: Value {
    switch self {
    case .constant(let value): value
    case .computed(let make): make()
    }
  }
}

extension DefaultValue: Sendable where Value: Sendable {}

extension DefaultValue {
  /// The default as text for the key registry.
  var summary: String {
    switch self {
    case .constant(let value):
      if let optional = value as? any OptionalValue {
        return optional.wrappedValue.map { String(describing: $0) } ?? "nil"
      }
      return String(describing: value)
    case .computed: return "computed on each read"
    }
  }
}

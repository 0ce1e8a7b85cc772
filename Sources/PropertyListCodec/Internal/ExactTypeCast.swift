/// `object as? Value`, without the runtime's cast when the object is exactly a `Value`.
///
/// Why: casting an `Any` makes the runtime look for a path between the types, costly even
/// when they are the same, which is nearly always so for Foundation's values on Linux.
/// Comparing two type metadata pointers is a fraction of that; other pairs of types get
/// the runtime's cast, so the result is always what `as?` gives.
@usableFromInline
package enum ExactTypeCast {
  /// `object as? Value`: the object itself when its dynamic type is `Value`, else the
  /// runtime's cast.
  ///
  /// - Parameters:
  ///   - object: The object to cast.
  ///   - as: The type wanted.
  /// - Returns: The object as a `Value`, or `nil` when `as?` would give `nil`.
  ///
  ///     ExactTypeCast.value(of: 7, as: Int.self)       // 7, without the runtime's cast
  ///     ExactTypeCast.value(of: 7, as: Int?.self)      // .some(7), through `as?`
  @inlinable @inline(__always)
  package static func value<Value>(of object: Any, as _: Value.Type) -> Value? {
    if let value = exactly(object, as: Value.self) { return value }
    return object as? Value
  }

  /// `object` when its dynamic type is `Value` itself, else `nil`: no bridging, no
  /// subclass, no optional wrapping.
  ///
  /// - Parameters:
  ///   - object: The object.
  ///   - as: The type it must be exactly.
  /// - Returns: The object, or `nil` when its type is another.
  ///
  ///     ExactTypeCast.exactly(7, as: Int.self)                   // 7
  ///     ExactTypeCast.exactly(NSNumber(value: 7), as: Int.self)  // nil
  @inlinable @inline(__always)
  package static func exactly<Value>(_ object: Any, as _: Value.Type) -> Value? {
    // Passing an `Any` to an unconstrained generic parameter opens it in Swift 6 mode
    // (SE-0352): `Object` is its dynamic type. `exactlyIsExact` fails if it is not opened.
    exactly(opened: object, as: Value.self)
  }

  /// `object` when `Object` is `Value`, else `nil`: for a generic caller that has opened
  /// its `Any` already and tries several types, so that the `Any` is opened once, not once
  /// per type. (An argument written `x as Any` is not opened, and is then never exact.)
  ///
  /// - Parameters:
  ///   - object: The object, of its dynamic type.
  ///   - as: The type it must be.
  /// - Returns: The object, or `nil` when `Object` is another type.
  ///
  ///     ExactTypeCast.exactly(opened: 7, as: Int.self)    // 7
  @inlinable @inline(__always)
  package static func exactly<Object, Value>(opened object: Object, as _: Value.Type) -> Value? {
    // The same type, so the same size and layout: the bit cast is the value itself.
    Object.self == Value.self ? unsafeBitCast(object, to: Value.self) : nil
  }
}

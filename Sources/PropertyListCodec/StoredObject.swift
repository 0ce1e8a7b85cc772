import Foundation

/// A property-list object as the library's store holds it: the four scalar types typed
/// keys read most held as themselves, anything else as `Any`.
///
/// Why not `Any` throughout: a typed read of an `Any` asks the runtime to cast it, a large
/// part of a read. Reading a case is a branch, and in a read specialised for its type the
/// payload's cast is resolved at compile time.
///
/// The cases hold exact Swift types only: an `NSNumber`, a `UInt64` or an `Int32` stays in
/// ``other(_:)``, so a stored object reads, compares and writes as the `Any` it was made
/// from (`NSNumber(value: true)` still reads as a `Bool`), at the cost of a runtime cast.
///
/// Cost in memory: 33 bytes, 40 with alignment, where an `Any` takes 32.
@usableFromInline
package enum StoredObject {
  case int(Int)
  case double(Double)
  case bool(Bool)
  case string(String)
  case other(Any)

  /// `object`, in the case of its exact type.
  ///
  /// Cost: up to four type comparisons; no runtime cast (see ``ExactTypeCast``).
  ///
  ///     StoredObject(7)                     // .int(7)
  ///     StoredObject(NSNumber(value: 7))    // .other(7), an NSNumber still
  @inlinable
  package init(_ object: Any) {
    self = Self.scalar(object) ?? .other(object)
  }

  /// An integer read from a file: ``int(_:)`` when an `Int` holds it, else the `Int64`
  /// itself (only where `Int` is 32 bits, arm64_32), which a key of `Int64` reads and a key
  /// of `Int` reports as out of range, instead of a trap.
  ///
  ///     StoredObject.integer(7)              // .int(7)
  ///     StoredObject.integer(5_000_000_000)  // .int in 64 bits, .other(Int64) in 32
  @inlinable
  package static func integer(_ value: Int64) -> StoredObject {
    if let exact = Int(exactly: value) { return .int(exact) }
    return .other(value)
  }

  @usableFromInline
  static func scalar<Object>(_ object: Object) -> StoredObject? {
    if let value = ExactTypeCast.exactly(opened: object, as: Int.self) { return .int(value) }
    if let value = ExactTypeCast.exactly(opened: object, as: String.self) { return .string(value) }
    if let value = ExactTypeCast.exactly(opened: object, as: Bool.self) { return .bool(value) }
    if let value = ExactTypeCast.exactly(opened: object, as: Double.self) { return .double(value) }
    return nil
  }

  /// The object as `Any`, as Foundation hands objects out. Cost: boxing a string is a
  /// retain; the other scalars fit in the `Any` itself.
  @usableFromInline package var object: Any {
    switch self {
    case .int(let value): value
    case .double(let value): value
    case .bool(let value): value
    case .string(let value): value
    case .other(let value): value
    }
  }

  /// The object as a `Value`, or `nil`: what `object as? Value` gives.
  ///
  /// Inlinable: specialised for `Value`, its case is a move and other scalar cases fold
  /// away; only ``other(_:)`` is tested at run time (``ExactTypeCast``).
  ///
  /// - Parameter as: The type to read the object as.
  /// - Returns: The object as a `Value`, or `nil` when it is not one.
  ///
  ///     StoredObject.int(7).value(as: Int.self)     // 7
  ///     StoredObject.int(7).value(as: Bool.self)    // nil
  @inlinable @inline(__always)
  package consuming func value<Value>(as _: Value.Type) -> Value? {
    switch consume self {
    case .int(let value): value as? Value
    case .double(let value): value as? Value
    case .bool(let value): value as? Value
    case .string(let value): value as? Value
    case .other(let value): ExactTypeCast.value(of: value, as: Value.self)
    }
  }

  /// Whether both hold the same value of the same property-list type, as
  /// ``PropertyListEquality/isEqual(_:_:)`` decides for their objects.
  ///
  /// - Parameter other: The object to compare with.
  /// - Returns: Whether writing one over the other would change nothing. Cost: a
  ///   comparison for two scalars of one case; otherwise that of `isEqual`.
  ///
  ///     StoredObject(1).isSame(as: StoredObject(true))    // false: another type
  package func isSame(as other: StoredObject) -> Bool {
    // Case by case rather than a switch over the pair, which copied both objects.
    switch self {
    case .int(let lhs): if case .int(let rhs) = other { return lhs == rhs }
    case .string(let lhs): if case .string(let rhs) = other { return lhs == rhs }
    case .bool(let lhs): if case .bool(let rhs) = other { return lhs == rhs }
    case .double, .other: break
    }
    return PropertyListEquality.isEqual(object, other.object)
  }
}

extension Dictionary where Value == StoredObject {
  /// Every object as `Any`, for Foundation's API and the `defaults` tool. Cost: a new
  /// dictionary, linear in the count.
  package var objects: [Key: Any] { mapValues(\.object) }
}

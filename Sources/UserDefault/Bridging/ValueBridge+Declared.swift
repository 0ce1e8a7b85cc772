import Foundation
import PropertyListCodec

/// The bridges the declaration overloads choose, so a declared type is not classified
/// again at run time; only a `Codable` collection's elements and `[Any]`'s values are.
/// Each is made once per type and way, then found with a lock and a lookup; one with
/// custom JSON coders is made for its declaration.
extension ValueBridge {
  /// A ``UserDefaultable`` type, through its own conformance.
  static func native() -> ValueBridge where Value: UserDefaultable {
    declared(.native) {
      if let optional = Value.self as? any NativeOptional.Type {
        return optional.nativeOptionalCoding() as? any ValueCoding<Value>
      }
      return NativeCoding<Value>()
    }
  }

  /// A `RawRepresentable` type, as its raw value.
  static func rawValue() -> ValueBridge
  where Value: RawRepresentable, Value.RawValue: UserDefaultable {
    declared(.rawValue) { RawCoding<Value>.ofDeclaredRawValue() }
  }

  /// An array, set, `[String: …]` or optional of raw-value elements, element by element.
  static func rawValueContainer() -> ValueBridge where Value: _RawValueContainer {
    declared(.rawValueContainer) {
      (Value.self as? any RawValueContainerCoding.Type)?.rawValueContainerCoding()
        as? any ValueCoding<Value>
    }
  }

  /// A `Codable` type: JSON, or, for a collection or optional, element by element as its
  /// elements' types are stored (found at run time). `json`: custom coders, else the
  /// library's.
  static func codable(json: JSONCoding? = nil) -> ValueBridge where Value: Codable {
    let make = { () -> (any ValueCoding<Value>)? in
      if Value.self is any CollectionBridging.Type || Value.self is any OptionalBridging.Type {
        return resolve(json: json ?? .shared).coding
      }
      return JSONValueCoding<Value>(json: json ?? .shared)
    }
    guard json == nil else { return ValueBridge(coding: make() ?? UnsupportedCoding<Value>()) }
    return declared(.codable, make)
  }

  /// `[Any]`, `[String: Any]` or an optional of either: values checked when written.
  static func propertyListContainer() -> ValueBridge where Value: _PropertyListContainer {
    declared(.propertyListContainer) { resolve().coding }
  }

  /// An optional of a declared type: `nil` removes. Made once per wrapped bridge, when that
  /// one was made once per type (not for custom JSON coders).
  static func optional<Wrapped>(_ wrapped: ValueBridge<Wrapped>) -> ValueBridge
  where Value == Wrapped? {
    let make = { () -> (any ValueCoding<Value>)? in OptionalCoding<Wrapped>(wrapped: wrapped.coding)
    }
    guard let way = declaredWays.withLock({ $0[ObjectIdentifier(wrapped.token)] }) else {
      return ValueBridge(coding: make()!)
    }
    return declared(way, optional: true, make)
  }

  typealias Way = ValueBridgeWay

  /// The bridge for `Value` and `way`, made by `make` the first time.
  private static func declared(
    _ way: Way, optional: Bool = false, _ make: () -> (any ValueCoding<Value>)?
  ) -> ValueBridge {
    let key = DeclaredBridgeKey(type: ObjectIdentifier(Value.self), way: way, optional: optional)
    if let bridge = declaredBridges.withLock({ $0[key] }) as? ValueBridge<Value> { return bridge }
    let bridge = ValueBridge(coding: make() ?? UnsupportedCoding<Value>())
    return declaredBridges.withLock { bridges in
      // Another thread made it meanwhile: its bridge (and cache token) wins.
      if let made = bridges[key] as? ValueBridge<Value> { return made }
      bridges[key] = bridge
      declaredWays.withLock { $0[ObjectIdentifier(bridge.token)] = way }
      return bridge
    }
  }
}

private struct DeclaredBridgeKey: Hashable {
  let type: ObjectIdentifier
  let way: ValueBridgeWay
  let optional: Bool
}

private let declaredBridges = Lock<[DeclaredBridgeKey: any Sendable]>([:])
/// The way each declared bridge was made for, by token; not in the bridge, whose size
/// every read carries.
private let declaredWays = Lock<[ObjectIdentifier: ValueBridgeWay]>([:])

enum ValueBridgeWay: UInt8, Sendable {
  case native, rawValue, rawValueContainer, codable, propertyListContainer
}

extension JSONCoding {
  static func custom(encoder: JSONEncoder?, decoder: JSONDecoder?) -> JSONCoding? {
    encoder == nil && decoder == nil ? nil : JSONCoding(encoder: encoder, decoder: decoder)
  }
}

/// An optional of a ``UserDefaultable`` type, reached through the `UserDefaultable`
/// overload (`Key<Int?>("k", default: 5)`): `nil` removes, the rest is the wrapped type's.
protocol NativeOptional {
  static func nativeOptionalCoding() -> Any
}

extension Optional: NativeOptional where Wrapped: UserDefaultable {
  /// Through the wrapped type's own native bridge, so an optional of an optional unwraps
  /// once per level.
  static func nativeOptionalCoding() -> Any {
    OptionalCoding<Wrapped>(wrapped: ValueBridge<Wrapped>.native().coding)
  }
}

/// The coding of each ``_RawValueContainer``: its elements as their raw values.
protocol RawValueContainerCoding {
  static func rawValueContainerCoding() -> Any
}

extension Array: RawValueContainerCoding
where Element: RawRepresentable, Element.RawValue: UserDefaultable {
  static func rawValueContainerCoding() -> Any {
    ArrayCoding(element: RawCoding<Element>.ofDeclaredRawValue(), earlierJSON: .never)
  }
}

extension Set: RawValueContainerCoding
where Element: RawRepresentable, Element.RawValue: UserDefaultable {
  static func rawValueContainerCoding() -> Any {
    SetCoding(
      array: ArrayCoding(element: RawCoding<Element>.ofDeclaredRawValue(), earlierJSON: .never))
  }
}

extension Dictionary: RawValueContainerCoding
where Key == String, Value: RawRepresentable, Value.RawValue: UserDefaultable {
  static func rawValueContainerCoding() -> Any {
    DictionaryCoding<Value>(element: RawCoding<Value>.ofDeclaredRawValue(), earlierJSON: .never)
  }
}

extension Optional: RawValueContainerCoding
where Wrapped: RawRepresentable, Wrapped.RawValue: UserDefaultable {
  static func rawValueContainerCoding() -> Any {
    OptionalCoding<Wrapped>(wrapped: RawCoding<Wrapped>.ofDeclaredRawValue())
  }
}

extension RawCoding where R.RawValue: UserDefaultable {
  /// The raw value through its own ``UserDefaultable`` conformance.
  static func ofDeclaredRawValue() -> RawCoding { RawCoding(raw: NativeCoding<R.RawValue>()) }
}

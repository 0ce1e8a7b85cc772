import Foundation
import PropertyListCodec

/// How values of one Swift type are written to and read from a store.
///
/// A key or wrapper gets the bridge its overload chose (ValueBridge+Declared.swift). What is
/// named at run time (``shared``) is classified in the overloads' order of preference:
/// `Optional`, ``UserDefaultable``, `RawRepresentable`, collections of storable elements,
/// `Any` (validated), `Codable` (JSON). Any other type's writes fail with
/// ``DefaultsDiagnostic/Kind/unsupportedType``; reads give the default.
@usableFromInline
struct ValueBridge<Value>: Sendable {
  let coding: any ValueCoding<Value>
  /// So the cache never hands one bridge's decoded value to a reader using another.
  @usableFromInline let token = BridgeToken()
  /// Whether decoding is a cast or two, cheaper than checking the cache, which such
  /// values skip.
  @usableFromInline let decodesCheaply: Bool
  /// Whether a stored object of type `Value` is the value itself, so a cast decodes it.
  @usableFromInline let storesValueItself: Bool
  /// Whether every value is stored as itself (never `nil`), so a write needs no coding.
  @usableFromInline let writesValueItself: Bool

  init(coding: any ValueCoding<Value>) {
    self.coding = coding
    self.decodesCheaply = coding.decodesCheaply
    self.storesValueItself = coding.storesValueItself
    self.writesValueItself = coding.writesValueItself
  }

  var storage: StorageForm { coding.storage }

  /// `nil` means remove the stored value.
  @usableFromInline
  func encode(_ value: Value) throws(DefaultsError) -> Any? { try coding.encode(value) }
  func decode(_ object: Any) throws(DefaultsError) -> Value { try coding.decode(object) }

  /// The bridge for `Value` with the library's JSON coders, resolved once per type.
  /// Cost after the first call: one lock and one dictionary lookup.
  static var shared: ValueBridge<Value> {
    let type = ObjectIdentifier(Value.self)
    if let bridge = sharedBridges.withLock({ $0[type] }) as? ValueBridge<Value> { return bridge }
    let bridge = resolve()
    sharedBridges.withLock { $0[type] = bridge }
    return bridge
  }

  static func resolve(json: JSONCoding = .shared) -> ValueBridge<Value> {
    let coding = CodingResolver.coding(for: Value.self, json: json) as? any ValueCoding<Value>
    return ValueBridge(coding: coding ?? UnsupportedCoding<Value>())
  }
}

private let sharedBridges = Lock<[ObjectIdentifier: any Sendable]>([:])

enum StorageForm: Sendable {
  case propertyList, json, unsupported
}

/// One way of storing values of one type: a small generic struct, so specialised code.
protocol ValueCoding<Value>: Sendable {
  associatedtype Value
  var storage: StorageForm { get }
  func encode(_ value: Value) throws(DefaultsError) -> Any?
  func decode(_ object: Any) throws(DefaultsError) -> Value
  var decodesCheaply: Bool { get }
  var storesValueItself: Bool { get }
  /// Whether `encode` returns its argument for every value: not an optional's coding,
  /// which stores its wrapped value and removes for `nil`.
  var writesValueItself: Bool { get }
  /// Whether earlier versions stored a collection of such values as one JSON string:
  /// `Codable` values, collections of them, and their optionals.
  var wasStoredAsJSON: Bool { get }
}

extension ValueCoding {
  var decodesCheaply: Bool { false }
  var storesValueItself: Bool { false }
  var writesValueItself: Bool { false }
  var wasStoredAsJSON: Bool { storage == .json }
}

/// Finds the coding of a type known only at run time by opening its metatype.
enum CodingResolver {
  static func coding(for type: Any.Type, json: JSONCoding) -> Any? {
    if let optional = type as? any OptionalBridging.Type {
      return optional.optionalCoding(json: json)
    }
    if let native = type as? any UserDefaultable.Type {
      return nativeCoding(native)
    }
    if let raw = type as? any RawRepresentable.Type, let coding = rawCoding(raw, json: json) {
      return coding
    }
    if let collection = type as? any CollectionBridging.Type,
      let coding = collection.collectionCoding(json: json)
    {
      return coding
    }
    if type == Any.self {
      return AnyPropertyListCoding()
    }
    if let codable = type as? any Codable.Type {
      return jsonCoding(codable, json: json)
    }
    return nil
  }

  private static func nativeCoding<U: UserDefaultable>(_: U.Type) -> Any { NativeCoding<U>() }

  private static func rawCoding<R: RawRepresentable>(_: R.Type, json: JSONCoding) -> Any? {
    let raw = ValueBridge<R.RawValue>.resolve(json: json)
    guard raw.storage == .propertyList else { return nil }
    return RawCoding<R>(raw: raw.coding)
  }

  private static func jsonCoding<C: Codable>(_: C.Type, json: JSONCoding) -> Any {
    JSONValueCoding<C>(json: json)
  }
}

struct UnsupportedCoding<Value>: ValueCoding {
  var storage: StorageForm { .unsupported }
  func encode(_ value: Value) throws(DefaultsError) -> Any? {
    throw DefaultsError(
      .unsupportedType,
      "\(Value.self) is not UserDefaultable, RawRepresentable or Codable; nothing was stored")
  }
  func decode(_ object: Any) throws(DefaultsError) -> Value {
    throw DefaultsError(.unsupportedType, "\(Value.self) cannot be read from a property list")
  }
}

struct NativeCoding<U: UserDefaultable>: ValueCoding {
  /// How `U`'s base type is written, found once when the bridge is made.
  let base = BaseCoding(U.BaseType.self)
  var storage: StorageForm { .propertyList }
  var decodesCheaply: Bool {
    U.self is any SignedPropertyListInteger.Type || U.self is any UnsignedPropertyListInteger.Type
      || U.self == Bool.self || U.self == Double.self || U.self == Float.self
      || U.self == String.self || U.self == Data.self || U.self == Date.self
  }
  var storesValueItself: Bool {
    U.self == Int.self || U.self == String.self || U.self == Bool.self || U.self == Double.self
      || U.self == Data.self
  }
  /// Their `propertyListObject()` is the value itself.
  var writesValueItself: Bool { storesValueItself }
  func encode(_ value: U) throws(DefaultsError) -> Any? {
    try base.encode(try U.storableValue(of: value))
  }
  func decode(_ object: Any) throws(DefaultsError) -> U {
    try U.decoded(from: try base.decode(object))
  }
}

/// One ``PropertyListValue`` type's ``PropertyListCoded`` conformance, looked up once
/// rather than on every write.
struct BaseCoding<Base>: Sendable {
  let encode: @Sendable (Base) throws(DefaultsError) -> Any
  let decode: @Sendable (Any) throws(DefaultsError) -> Base

  init(_ type: Base.Type) {
    guard let coded = type as? any PropertyListCoded.Type else {
      encode = { _ throws(DefaultsError) in
        throw DefaultsError(
          .unsupportedType,
          "\(Base.self) is not one of the library's property-list types; nothing was stored")
      }
      decode = { _ throws(DefaultsError) in
        throw DefaultsError(.unsupportedType, "\(Base.self) cannot be read from a property list")
      }
      return
    }
    self = Self.coding(coded)
  }

  /// `Coded` is `Base` itself, opened from the existential: the casts cannot fail.
  private static func coding<Coded: PropertyListCoded>(_: Coded.Type) -> BaseCoding {
    BaseCoding(
      encode: { value throws(DefaultsError) in
        try unsafeBitCast(value, to: Coded.self).propertyListObject()
      },
      decode: { object throws(DefaultsError) in
        unsafeBitCast(try Coded(propertyListObject: object), to: Base.self)
      })
  }

  private init(
    encode: @escaping @Sendable (Base) throws(DefaultsError) -> Any,
    decode: @escaping @Sendable (Any) throws(DefaultsError) -> Base
  ) {
    self.encode = encode
    self.decode = decode
  }
}

struct RawCoding<R: RawRepresentable>: ValueCoding {
  let raw: any ValueCoding<R.RawValue>
  var storage: StorageForm { .propertyList }
  var decodesCheaply: Bool { raw.decodesCheaply }
  func encode(_ value: R) throws(DefaultsError) -> Any? { try raw.encode(value.rawValue) }
  func decode(_ object: Any) throws(DefaultsError) -> R {
    try RawValueStorage.value(ofRaw: try raw.decode(object))
  }
}

/// A `Codable` value as JSON text, for every path that stores one.
struct JSONValueCoding<C: Codable>: ValueCoding {
  let json: JSONCoding
  var storage: StorageForm { .json }
  func encode(_ value: C) throws(DefaultsError) -> Any? { try text(of: value) }
  func text(of value: C) throws(DefaultsError) -> String { try json.encodeToString(value) }
  func decode(_ object: Any) throws(DefaultsError) -> C {
    if let text = object as? String { return try json.decode(C.self, fromString: text) }
    if let data = object as? Data { return try json.decode(C.self, from: data) }
    throw .wrongType(String.self, found: object)
  }
}

struct AnyPropertyListCoding: ValueCoding {
  var storage: StorageForm { .propertyList }
  func encode(_ value: Any) throws(DefaultsError) -> Any? {
    try PropertyListObject.validated(value)
  }
  func decode(_ object: Any) throws(DefaultsError) -> Any {
    PropertyListObject.unwrapped(object) ?? object
  }
}

protocol OptionalBridging {
  static func optionalCoding(json: JSONCoding) -> Any
}

extension Optional: OptionalBridging {
  static func optionalCoding(json: JSONCoding) -> Any {
    OptionalCoding<Wrapped>(wrapped: ValueBridge<Wrapped>.resolve(json: json).coding)
  }
}

/// `nil` removes the stored value; anything else is stored as the wrapped value.
struct OptionalCoding<Wrapped>: ValueCoding {
  let wrapped: any ValueCoding<Wrapped>
  var storage: StorageForm { wrapped.storage }
  var decodesCheaply: Bool { wrapped.decodesCheaply }
  var storesValueItself: Bool { wrapped.storesValueItself }
  var wasStoredAsJSON: Bool { wrapped.wasStoredAsJSON }
  func encode(_ value: Wrapped?) throws(DefaultsError) -> Any? {
    guard let value else { return nil }
    return try wrapped.encode(value)
  }
  func decode(_ object: Any) throws(DefaultsError) -> Wrapped? { try wrapped.decode(object) }
}

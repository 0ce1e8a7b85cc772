import Foundation
import PropertyListCodec

/// A Swift value with a property-list form that survives Foundation on every platform.
///
/// This is the lowest layer of value bridging: ``UserDefaultable/BaseType`` is always a
/// `PropertyListValue`. The conformances below decide, once for the whole library, how each
/// primitive is written so that it reads back exactly after a restart on Linux too:
///
/// | type | stored as | why |
/// |---|---|---|
/// | `Bool`, `String`, `Data`, `Int`, `Int8`…`Int64` | itself | native |
/// | `UInt`, `UInt8`…`UInt64` | an unsigned 64-bit number | Foundation on Linux reads `UInt` back as a signed `Int` |
/// | `Double` | itself, `-0.0` included (earlier versions' string `"-0.0"` still reads) | |
/// | `Float` | the `Double` with the same value | Foundation reloads floats as doubles; the conversion is exact |
/// | `Date` | itself, a date | what every reader of the file sees; exact (an XML file given a fraction of a second is written as binary); a `Double` written by an earlier version reads back too |
/// | arrays, `[String: …]` | arrays and dictionaries of the above | native |
///
/// On a Foundation instance on Linux, a backend stores a `Date` with a fraction of a second
/// as its seconds and `-0.0` as the text `"-0.0"`, so that Foundation's own `synchronize()`
/// (which writes XML and reads it back) changes neither; both read back here.
///
/// Reading is lenient where nothing is lost (any number that fits the integer type, a
/// `Date` object for a `Date`) and strict otherwise: a value of another type or out of
/// range throws ``DefaultsError`` with ``DefaultsDiagnostic/Kind/wrongType``.
///
/// A marker: how each type is written is internal to the library (`PropertyListCoded`), so
/// that the public surface stays what users need. To store a type of your own, conform it
/// to ``UserDefaultable`` with one of these types as its `BaseType`; conforming a type of
/// your own to `PropertyListValue` alone adds nothing (its values are refused as an
/// unsupported type, and reported).
public protocol PropertyListValue {}

/// How a ``PropertyListValue`` is written and read; every built-in conformance lives here.
protocol PropertyListCoded: PropertyListValue, SendableMetatype {
  /// The property-list object handed to `UserDefaults`.
  ///
  /// - Returns: The object to store: the value itself, or its stored form (see the table in
  ///   ``PropertyListValue``).
  /// - Throws: ``DefaultsError`` when the value cannot be stored (for example a
  ///   non-property-list element inside `[Any]`).
  ///
  /// `let object = try [1, 2, 3].propertyListObject()`
  func propertyListObject() throws(DefaultsError) -> Any

  /// Reads a value back from the object a `UserDefaults` returned.
  ///
  /// - Parameters:
  ///   - object: The stored object, as `object(forKey:)` returns it.
  /// - Throws: ``DefaultsError`` with ``DefaultsDiagnostic/Kind/wrongType`` when `object` is of
  ///   another type or out of range for this one.
  ///
  /// `let count = try Int(propertyListObject: stored)`
  init(propertyListObject object: Any) throws(DefaultsError)
}

extension Bool: PropertyListValue {}
extension Bool: PropertyListCoded {
  func propertyListObject() -> Any { self }
  init(propertyListObject object: Any) throws(DefaultsError) {
    if let value = object as? Bool {
      self = value
    } else if let number = object as? NSNumber, number.int64Value == 0 || number.int64Value == 1,
      number.doubleValue == Double(number.int64Value)
    {
      self = number.int64Value == 1
    } else {
      throw .wrongType(Bool.self, found: object)
    }
  }
}

extension String: PropertyListValue {}
extension String: PropertyListCoded {
  func propertyListObject() -> Any { self }
  init(propertyListObject object: Any) throws(DefaultsError) {
    if let value = object as? String {
      self = value
    } else if let value = object as? NSString {
      self = value as String
    } else {
      throw .wrongType(String.self, found: object)
    }
  }
}

extension Data: PropertyListValue {}
extension Data: PropertyListCoded {
  func propertyListObject() -> Any { self }
  init(propertyListObject object: Any) throws(DefaultsError) {
    if let value = object as? Data {
      self = value
    } else if let value = object as? NSData {
      self = value as Data
    } else {
      throw .wrongType(Data.self, found: object)
    }
  }
}

extension Double: PropertyListValue {}
extension Double: PropertyListCoded {
  // Itself, -0.0 included: both of the library's writers keep the sign. Earlier versions,
  // and a Linux Foundation instance (FoundationFileForm), store -0.0 as the string "-0.0",
  // which reads (below); other text is the wrong type, as for every number type.
  func propertyListObject() -> Any { self }
  init(propertyListObject object: Any) throws(DefaultsError) {
    if let value = object as? Double {
      self = value
    } else if let number = object as? NSNumber {
      self = number.doubleValue
    } else if let text = object as? String, text == PropertyListObject.negativeZeroText {
      self = -0.0
    } else {
      throw .wrongType(Double.self, found: object)
    }
  }
}

extension Float: PropertyListValue {}
extension Float: PropertyListCoded {
  func propertyListObject() -> Any { Double(self).propertyListObject() }
  init(propertyListObject object: Any) throws(DefaultsError) {
    if let value = object as? Float {
      self = value
    } else {
      self = Float(try Double(propertyListObject: object))
    }
  }
}

extension Date: PropertyListValue {}
extension Date: PropertyListCoded {
  func propertyListObject() -> Any { self }
  /// A date, or its seconds since 2001 as a number (an earlier version's form, and a Linux
  /// Foundation instance's for a date XML cannot hold), or the text `"-0.0"` (that
  /// instance's form of `-0.0` seconds). Other text is no date: `"1704067200"` would be
  /// read as seconds since 2001, a date in 2055.
  init(propertyListObject object: Any) throws(DefaultsError) {
    if let value = object as? Date {
      self = value
    } else if !(object is String), !(object is Bool), let number = object as? NSNumber {
      self = Date(timeIntervalSinceReferenceDate: number.doubleValue)
    } else if let text = object as? String, text == PropertyListObject.negativeZeroText {
      self = Date(timeIntervalSinceReferenceDate: -0.0)
    } else {
      throw .wrongType(Date.self, found: object)
    }
  }
}

/// Reads any integer type from what Foundation hands back: a Swift integer, or an
/// `NSNumber` of any width, refusing values that do not fit exactly.
@usableFromInline
func exactInteger<T: FixedWidthInteger>(_ object: Any, as type: T.Type) throws(DefaultsError) -> T {
  if let value = object as? T { return value }
  if let number = object as? NSNumber {
    // Foundation on Linux hands back Int.max as an Int64 and UInt64 as UInt64; try the
    // wide types first, then a double that happens to hold an integer.
    if let value = number as? Int64, let exact = T(exactly: value) { return exact }
    if let value = number as? UInt64, let exact = T(exactly: value) { return exact }
    let double = number.doubleValue
    if double.rounded() == double, let exact = T(exactly: double) { return exact }
  }
  throw .wrongType(T.self, found: object)
}

/// Signed integers are stored as themselves.
protocol SignedPropertyListInteger: FixedWidthInteger, SignedInteger, PropertyListCoded {}
/// Unsigned integers are stored as an unsigned 64-bit number, which Foundation keeps.
protocol UnsignedPropertyListInteger: FixedWidthInteger, UnsignedInteger, PropertyListCoded {
}

extension SignedPropertyListInteger {
  func propertyListObject() -> Any { Int64(self) }
  init(propertyListObject object: Any) throws(DefaultsError) {
    self = try exactInteger(object, as: Self.self)
  }
}

extension UnsignedPropertyListInteger {
  func propertyListObject() -> Any { UInt64(self) }
  init(propertyListObject object: Any) throws(DefaultsError) {
    self = try exactInteger(object, as: Self.self)
  }
}

extension Int: PropertyListValue, SignedPropertyListInteger {
  // Stored as `Int` itself so that `integer(forKey:)` reads it.
  func propertyListObject() -> Any { self }
}
extension Int8: PropertyListValue, SignedPropertyListInteger {}
extension Int16: PropertyListValue, SignedPropertyListInteger {}
extension Int32: PropertyListValue, SignedPropertyListInteger {}
extension Int64: PropertyListValue, SignedPropertyListInteger {}
extension UInt: PropertyListValue, UnsignedPropertyListInteger {}
extension UInt8: PropertyListValue, UnsignedPropertyListInteger {}
extension UInt16: PropertyListValue, UnsignedPropertyListInteger {}
extension UInt32: PropertyListValue, UnsignedPropertyListInteger {}
extension UInt64: PropertyListValue, UnsignedPropertyListInteger {}

extension Array: PropertyListValue where Element: PropertyListValue {}
extension Array: PropertyListCoded where Element: PropertyListCoded {
  func propertyListObject() throws(DefaultsError) -> Any {
    try CollectionElements.map(self) { (element) throws(DefaultsError) -> Any in
      try element.propertyListObject()
    }
  }
  init(propertyListObject object: Any) throws(DefaultsError) {
    guard let objects = PropertyListObject.array(object) else {
      throw .wrongType([Element].self, found: object)
    }
    self = try CollectionElements.map(objects) { (element) throws(DefaultsError) in
      try Element(propertyListObject: element)
    }
  }
}

extension Dictionary: PropertyListValue where Key == String, Value: PropertyListValue {}
extension Dictionary: PropertyListCoded where Key == String, Value: PropertyListCoded {
  func propertyListObject() throws(DefaultsError) -> Any {
    try CollectionElements.mapValues(self) { (value) throws(DefaultsError) -> Any in
      try value.propertyListObject()
    }
  }
  init(propertyListObject object: Any) throws(DefaultsError) {
    guard let objects = PropertyListObject.dictionary(object) else {
      throw .wrongType([String: Value].self, found: object)
    }
    self = try CollectionElements.mapValues(objects) { (element) throws(DefaultsError) in
      try Value(propertyListObject: element)
    }
  }
}

/// `nil` has no property-list form: storing it through a typed API removes the key, and a
/// `nil` inside a collection is refused (Foundation on Linux traps on it).
extension Optional: PropertyListValue where Wrapped: PropertyListValue {}
extension Optional: PropertyListCoded where Wrapped: PropertyListCoded {
  func propertyListObject() throws(DefaultsError) -> Any {
    guard let value = self else {
      throw DefaultsError(.refusedValue, "nil cannot be stored inside a property list")
    }
    return try value.propertyListObject()
  }
  init(propertyListObject object: Any) throws(DefaultsError) {
    self = try Wrapped(propertyListObject: object)
  }
}

import Foundation
import PropertyListCodec

/// A Swift value with a property-list form that survives Foundation on every platform.
///
/// ``UserDefaultable/BaseType`` is always one. Each primitive is written so that it reads
/// back exactly after a restart on Linux too:
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
/// Reading is lenient where nothing is lost and strict otherwise: another type or out of
/// range throws ``DefaultsError`` with ``DefaultsDiagnostic/Kind/wrongType``.
///
/// A marker: to store a type of your own, conform it to ``UserDefaultable`` with one of
/// these as its `BaseType`; conforming it to `PropertyListValue` alone adds nothing.
public protocol PropertyListValue {}

protocol PropertyListCoded: PropertyListValue, SendableMetatype {
  func propertyListObject() throws(DefaultsError) -> Any

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
  // The string "-0.0" (earlier versions, FoundationFileForm) reads too.
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
  /// Also seconds since 2001 as a number (earlier versions; Linux Foundation's form for a
  /// date XML cannot hold) or `"-0.0"`. Other text is no date: `"1704067200"` would be 2055.
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

/// Refuses inexact values.
@usableFromInline
func exactInteger<T: FixedWidthInteger>(_ object: Any, as type: T.Type) throws(DefaultsError) -> T {
  if let value = object as? T { return value }
  if let number = object as? NSNumber {
    // Foundation on Linux hands back Int.max as an Int64 and UInt64 as UInt64.
    if let value = number as? Int64, let exact = T(exactly: value) { return exact }
    if let value = number as? UInt64, let exact = T(exactly: value) { return exact }
    let double = number.doubleValue
    if double.rounded() == double, let exact = T(exactly: double) { return exact }
  }
  throw .wrongType(T.self, found: object)
}

protocol SignedPropertyListInteger: FixedWidthInteger, SignedInteger, PropertyListCoded {}
/// As a `UInt64`, which Foundation keeps.
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

/// A `nil` inside a collection is refused: Foundation on Linux traps on it.
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

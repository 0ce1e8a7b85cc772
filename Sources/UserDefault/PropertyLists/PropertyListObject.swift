import Foundation

/// Checks and normalises untyped property-list objects (`Any`, `[Any]`, `[String: Any]`).
///
/// Foundation on Linux hands arrays back as `[Any?]`, and traps on storing a value that
/// is no property list: every untyped write goes through ``validated(_:)`` first.
enum PropertyListObject {
  /// Stands for `-0.0` where a writer loses a zero's sign; every real or date reader
  /// takes it.
  static let negativeZeroText = "-0.0"

  /// Removes the `Optional` boxes Foundation wraps around collection elements.
  static func unwrapped(_ object: Any) -> Any? {
    if let optional = object as? any OptionalValue {
      return optional.wrappedValue.flatMap(unwrapped)
    }
    return object
  }

  static func array(_ object: Any) -> [Any]? {
    if let array = object as? [Any] {
      return array.map { unwrapped($0) ?? $0 }
    }
    return nil
  }

  static func dictionary(_ object: Any) -> [String: Any]? {
    if let dictionary = object as? [String: Any] {
      return dictionary.mapValues { unwrapped($0) ?? $0 }
    }
    if let dictionary = object as? [AnyHashable: Any] {
      var result: [String: Any] = [:]
      for (key, value) in dictionary {
        guard let key = key.base as? String else { return nil }
        result[key] = unwrapped(value) ?? value
      }
      return result
    }
    return nil
  }

  /// Whether a writer can store `object`. Cost: one pass, allocating nothing.
  static func isStorable(_ object: Any) -> Bool {
    switch PropertyListKind(of: object) {
    case .bool, .integer, .real, .string, .date, .data: return true
    // Kept as found in a binary file, and written back to one (not to XML).
    case .opaque: return true
    case .other: return false
    case .array:
      guard let array = object as? [Any] else { return false }
      return array.allSatisfy { unwrapped($0).map(isStorable) ?? false }
    case .dictionary:
      guard let dictionary = dictionary(object) else { return false }
      return dictionary.values.allSatisfy(isStorable)
    }
  }

  /// `object` rebuilt from property-list types, or a refusal naming the first offending
  /// element. Cost: one pass, copying its collections.
  static func validated(_ object: Any, at path: String = "value") throws(DefaultsError) -> Any {
    guard let object = unwrapped(object) else {
      throw DefaultsError(.refusedValue, "\(path) is nil, which a property list cannot hold")
    }
    switch object {
    case is String, is Bool, is Data, is Date:
      return object
    case is Int, is Int8, is Int16, is Int32, is Int64, is UInt8, is UInt16, is UInt32, is UInt64,
      is Double:
      return object
    case let value as UInt:
      return UInt64(value)
    case let value as Float:
      return Double(value)
    case let value as NSString:
      return value as String
    case let value as NSNumber:
      return value
    case let value as NSData:
      return value as Data
    case let value as NSDate:
      return value as Date
    default:
      break
    }
    if let array = object as? [Any] {
      var result: [Any] = []
      result.reserveCapacity(array.count)
      for (index, element) in array.enumerated() {
        result.append(try validated(element, at: "\(path)[\(index)]"))
      }
      return result
    }
    if let dictionary = object as? [AnyHashable: Any] {
      var result: [String: Any] = [:]
      for (key, element) in dictionary {
        guard let key = key.base as? String else {
          throw DefaultsError(
            .refusedValue,
            "\(path) has a key of type \(type(of: key.base)); property lists need String keys")
        }
        result[key] = try validated(element, at: "\(path)[\"\(key)\"]")
      }
      return result
    }
    throw DefaultsError(
      .refusedValue, "\(path) is a \(type(of: object)), which is not a property-list type")
  }
}

/// Lets the library look inside an `Optional` it only knows as `Any` or as a generic type.
protocol OptionalValue {
  associatedtype Wrapped
  var wrappedValue: Wrapped? { get }
  init(wrapping: Wrapped?)
}

extension Optional: OptionalValue {
  var wrappedValue: Wrapped? { self }
  init(wrapping value: Wrapped?) { self = value }
}

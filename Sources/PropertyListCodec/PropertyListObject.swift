import Foundation

/// Checks and normalises untyped property-list objects (`Any`, `[Any]`, `[String: Any]`).
///
/// Foundation on Linux hands arrays back as `[Any?]`, and traps on storing a value that
/// is no property list: every untyped write goes through ``validated(_:)`` first.
package enum PropertyListObject {
  /// Stands for `-0.0` where a writer loses a zero's sign; every real or date reader
  /// takes it.
  package static let negativeZeroText = "-0.0"

  /// Removes the `Optional` boxes Foundation wraps around collection elements.
  package static func unwrapped(_ object: Any) -> Any? {
    if let optional = object as? any OptionalValue {
      return optional.wrappedValue.flatMap(unwrapped)
    }
    return object
  }

  package static func array(_ object: Any) -> [Any]? {
    if let array = object as? [Any] {
      return array.map { unwrapped($0) ?? $0 }
    }
    return nil
  }

  package static func dictionary(_ object: Any) -> [String: Any]? {
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
  package static func isStorable(_ object: Any) -> Bool {
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
}

/// Lets the library look inside an `Optional` it only knows as `Any` or as a generic type.
package protocol OptionalValue {
  associatedtype Wrapped
  var wrappedValue: Wrapped? { get }
  init(wrapping: Wrapped?)
}

extension Optional: OptionalValue {
  package var wrappedValue: Wrapped? { self }
  package init(wrapping value: Wrapped?) { self = value }
}

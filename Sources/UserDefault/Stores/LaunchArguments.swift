import Foundation
import PropertyListCodec

/// The launch-argument domain: the `-key value` pairs the program was started with, as
/// Foundation parses them (each value as property-list text, `YES`, `5`, `'"x y"'`,
/// `'(a, b)'`, `'{ a = 1; }'`, else as the text itself), first in every read of a store
/// that honours them. Taken once, from Foundation's own `NSArgumentDomain`, so that the
/// parse is Foundation's on every platform; it never changes during a run.
///
/// Why Foundation's domain rather than a parser of our own: the search list must agree
/// with what `UserDefaults.standard.object(forKey:)` returns for the same process, and on
/// Apple platforms that domain is the system's.
enum LaunchArguments {
  /// The arguments, parsed once; in a lock because `StoredObject` (any property list) is
  /// not `Sendable`, though nothing here ever changes it.
  private static let snapshot = Lock(parse())

  /// Whether the program was given any `-key value` argument.
  static let isPresent = !values().isEmpty

  /// The parsed arguments, by key; empty when the program had none.
  ///
  /// - Returns: A copy of the snapshot. Cost: an uncontended lock (the first call: reading
  ///   Foundation's domain, which makes `UserDefaults.standard`).
  static func values() -> [String: StoredObject] {
    snapshot.withLock { $0 }
  }

  /// The argument for `name`, or `nil`.
  ///
  /// - Parameter name: The stored name.
  /// - Returns: The argument's value. Cost: a flag when there are none; else a lock and a
  ///   lookup.
  static func value(forKey name: String) -> StoredObject? {
    isPresent ? snapshot.withLock { $0[name] } : nil
  }

  private static func parse() -> [String: StoredObject] {
    objects(in: UserDefaults.standard.volatileDomain(forName: UserDefaults.argumentDomain))
  }

  /// The argument domain's values as the store holds them. Text becomes a Swift `String`
  /// whatever class holds it: Darwin's domain holds `NSString`s, which would otherwise stay
  /// ``StoredObject/other(_:)``, and a typed read converts only `.string` text (`-count 5`
  /// would read the default and report a wrong type).
  ///
  /// - Parameter domain: The domain, as `volatileDomain(forName:)` gives it.
  /// - Returns: Its property-list values; any other value is left out.
  static func objects(in domain: [String: Any]) -> [String: StoredObject] {
    var values: [String: StoredObject] = [:]
    for (key, value) in domain {
      if let text = value as? NSString {
        values[key] = .string(String(text))
        continue
      }
      guard let object = try? PropertyListObject.validated(value) else { continue }
      values[key] = StoredObject(object)
    }
    return values
  }
}

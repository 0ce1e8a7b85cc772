import Foundation
import PropertyListCodec

/// The launch-argument domain: the `-key value` pairs the program was started with,
/// first in every read of a store that honours them. Taken once from Foundation's own
/// `NSArgumentDomain`, not parsed here, so reads agree with
/// `UserDefaults.standard.object(forKey:)`, which on Apple platforms is the system's.
enum LaunchArguments {
  /// In a lock only because `StoredObject` is not `Sendable`.
  private static let snapshot = Lock(parse())

  static let isPresent = !values().isEmpty

  /// - Returns: The arguments by key. Cost: an uncontended lock (the first call makes
  ///   `UserDefaults.standard`).
  static func values() -> [String: StoredObject] {
    snapshot.withLock { $0 }
  }

  /// - Returns: The argument for `name`. Cost: a flag when there are none; else a lock
  ///   and a lookup.
  static func value(forKey name: String) -> StoredObject? {
    isPresent ? snapshot.withLock { $0[name] } : nil
  }

  private static func parse() -> [String: StoredObject] {
    objects(in: UserDefaults.standard.volatileDomain(forName: UserDefaults.argumentDomain))
  }

  /// The domain's property-list values as the store holds them, text as a Swift `String`:
  /// a typed read converts only `.string` text, and Darwin's domain holds `NSString`s.
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

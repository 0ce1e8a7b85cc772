import Foundation

/// The launch-argument domain: the `-key value` pairs the program was started with, as
/// Foundation parses them (each value as property-list text, `YES`, `5`, `'"x y"'`,
/// `'(a, b)'`, `'{ a = 1; }'`, else as the text itself), first in every read of a store
/// that honours them. Read once, from Foundation's own `NSArgumentDomain`, so that the
/// parse is Foundation's on every platform; it never changes during a run.
///
/// Why Foundation's domain rather than a parser of our own: the search list must agree
/// with what `UserDefaults.standard.object(forKey:)` returns for the same process, and on
/// Apple platforms that domain is the system's. Cost: one read of the domain, the first
/// time a store or a typed read needs it; afterwards a lookup, skipped when it is empty.
enum LaunchArguments {
  /// The parsed arguments, by key; empty when the program had none. Parsed on each call
  /// (a store keeps its own copy): Foundation keeps the domain, and a stored copy here
  /// would need a lock to be shared across threads.
  static func values() -> [String: StoredObject] {
    guard isPresent else { return [:] }
    var values: [String: StoredObject] = [:]
    for (key, value) in UserDefaults.standard.volatileDomain(forName: UserDefaults.argumentDomain) {
      guard let object = try? PropertyListObject.validated(value) else { continue }
      values[key] = StoredObject(object)
    }
    return values
  }

  /// Whether the program was given any `-key value` argument.
  static let isPresent = !UserDefaults.standard.volatileDomain(
    forName: UserDefaults.argumentDomain
  ).isEmpty

  /// The argument for `name`, or `nil`. Cost: a flag when there are none; else a read of
  /// Foundation's domain (for the rare read that converts an argument's text).
  static func value(forKey name: String) -> StoredObject? {
    guard isPresent,
      let value = UserDefaults.standard.volatileDomain(forName: UserDefaults.argumentDomain)[name],
      let object = try? PropertyListObject.validated(value)
    else { return nil }
    return StoredObject(object)
  }
}

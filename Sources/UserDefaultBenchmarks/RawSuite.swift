import Foundation
import PropertyListCodec

/// Foundation's suite for a raw side, holding what the scratch file of the same name holds,
/// so both sides of a row start from the same data on every platform.
///
/// Linux: Foundation reads `$XDG_CONFIG_HOME/<name>.plist`, the file the parent process
/// wrote. Apple platforms: `cfprefsd` ignores `XDG_CONFIG_HOME` and `HOME` and would read
/// (and write) the user's real `~/Library/Preferences`, where the suite starts empty; so the
/// file's values become the suite's persistent domain there (not quadratic on Darwin), under
/// a name of this run's own, removed by ``removeAll()``.
enum RawSuite {
  private static let made = Lock<[String]>([])

  /// The suite `name`, loaded from `scratch/<name>.plist` where Foundation does not read it.
  static func named(_ name: String, in scratch: String) -> UserDefaults {
    #if canImport(Darwin)
      let unique = "UserDefaultBenchmarks.\(ProcessInfo.processInfo.processIdentifier).\(name)"
      let defaults = UserDefaults(suiteName: unique)!
      let data = FileManager.default.contents(atPath: scratch + "/\(name).plist") ?? Data()
      let values =
        (try? PropertyListSerialization.propertyList(from: data, format: nil)) as? [String: Any]
      defaults.setPersistentDomain(values ?? [:], forName: unique)
      made.withLock { $0.append(unique) }
      return defaults
    #else
      return UserDefaults(suiteName: name)!
    #endif
  }

  /// Removes the domains ``named(_:in:)`` made on Apple platforms (none elsewhere).
  static func removeAll() {
    for name in made.withLock({ $0 }) {
      // Synchronized: a command-line tool may exit before cfprefsd has the removal.
      let defaults = UserDefaults(suiteName: name)
      defaults?.removePersistentDomain(forName: name)
      _ = defaults?.synchronize()
    }
  }
}

import Foundation
import UserDefault

// The shapes the store handles at run time but the compile-time check does not take, as
// the "Supported types" article lists them: each is refused, so the documentation cannot
// go stale unseen. `extension Theme: UserDefaultable {}` makes the first three compile.
enum Theme: String, Sendable { case light, dark }

extension UserDefaults.Keys {
  static let pinned = Key<[Theme]?>("pinned", default: [])
  static let grid = Key<[[Theme]]>("grid", default: [])
  static let gaps = Key<[Theme?]>("gaps", default: [])
}

final class User {
  @UserDefaultsWrapper(key: "Rows", default: []) var rows: [[String: Any]]
  @UserDefaultsWrapper(key: "Anything") var anything: Any?
}

// expect: 10:23: error: initializer 'init(_:default:file:line:)' requires that 'Theme' conform to 'UserDefaultable'
// expect: 10:23: note: did you mean to use '.rawValue'?
// expect: 11:21: error: initializer 'init(_:default:file:line:)' requires that 'Theme' conform to 'UserDefaultable'
// expect: 11:21: note: did you mean to use '.rawValue'?
// expect: 12:21: error: initializer 'init(_:default:file:line:)' requires that 'Theme' conform to 'UserDefaultable'
// expect: 12:21: note: did you mean to use '.rawValue'?
// expect: 16:4: error: initializer 'init(key:default:userDefaults:file:line:)' requires the types '[String : Any]' and 'Any' be equivalent
// expect: 17:4: error: 'init(key:userDefaults:file:line:)' is unavailable: the optional's wrapped type is not one the library can store: conform it to Codable or UserDefaultable
// expect: Sources/UserDefault/Bridging/PropertyListContainer.swift: note: requirement from conditional conformance of '[[String : Any]]' to '_PropertyListContainer'
// expect: Sources/UserDefault/Bridging/UserDefaultable.swift: note: requirement from conditional conformance of 'Theme?' to 'UserDefaultable'
// expect: Sources/UserDefault/Bridging/UserDefaultable.swift: note: requirement from conditional conformance of '[Theme]' to 'UserDefaultable'
// expect: Sources/UserDefault/Bridging/UserDefaultable.swift: note: requirement from conditional conformance of '[Theme]' to 'UserDefaultable'
// expect: Sources/UserDefault/Surfaces/UserDefaultsWrapper.swift: note: 'init(key:userDefaults:file:line:)' has been explicitly marked unavailable here

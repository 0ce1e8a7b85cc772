import DefaultEntry
import Foundation

// Mistake: a type the library cannot store, through every other surface that takes a type.
// Each is one error that names the type (for a collection, its element).
struct Point: Sendable { var x: Int }

extension UserDefaults.Keys {
  static let computed = Key<Point>("computed", default: { Point(x: 0) })
  static let optional = Key<Point?>("optional")
  static let points = Key<[Point]>("points", default: [])
}

extension UserDefaults {
  @DefaultEntry(default: Point(x: 0)) var entryOrigin: Point
}

@MainActor
struct Settings {
  @UserDefault("origin", defaultValue: Point(x: 0)) var origin: Point
  @UserDefault("maybeOrigin") var maybeOrigin: Point?
}

final class User {
  @UserDefaultsWrapper(key: "Origin", default: Point(x: 0)) var origin: Point
  @UserDefaultsWrapper(key: "MaybeOrigin") var maybeOrigin: Point?
}

// expect: 9:25: error: initializer 'init(_:default:file:line:)' requires that 'Point' conform to 'UserDefaultable'
// expect: 10:25: error: initializer 'init(_:file:line:)' requires that 'Point' conform to 'UserDefaultable'
// expect: 11:23: error: initializer 'init(_:default:file:line:)' requires that 'Point' conform to 'UserDefaultable'
// expect: <macro expansion>: error: initializer 'init(_:default:file:line:)' requires that 'Point' conform to 'UserDefaultable'
// expect: 15:3: note: in expansion of macro 'DefaultEntry' on property 'entryOrigin' here
// expect: 20:4: error: initializer 'init(_:defaultValue:suite:defaults:encoder:decoder:file:line:)' requires that 'Point' conform to 'UserDefaultable'
// expect: 21:4: error: initializer 'init(_:suite:defaults:encoder:decoder:file:line:)' requires that 'Point' conform to 'UserDefaultable'
// expect: 25:4: error: initializer 'init(key:default:userDefaults:file:line:)' requires that 'Point' conform to 'UserDefaultable'
// expect: 26:4: error: 'init(key:userDefaults:file:line:)' is unavailable: the optional's wrapped type is not one the library can store: conform it to Codable or UserDefaultable
// expect: Sources/UserDefault/Bridging/UserDefaultable.swift: note: requirement from conditional conformance of '[Point]' to 'UserDefaultable'
// expect: Sources/UserDefault/Keys/Key.swift: note: where 'Value' = 'Point'
// expect: Sources/UserDefault/Keys/Key.swift: note: where 'Value' = 'Point'
// expect: Sources/UserDefault/Keys/Key.swift: note: where 'Wrapped' = 'Point'
// expect: Sources/UserDefault/Surfaces/UserDefault.swift: note: where 'Value' = 'Point'
// expect: Sources/UserDefault/Surfaces/UserDefault.swift: note: where 'Wrapped' = 'Point'
// expect: Sources/UserDefault/Surfaces/UserDefaultsWrapper.swift: note: 'init(key:userDefaults:file:line:)' has been explicitly marked unavailable here
// expect: Sources/UserDefault/Surfaces/UserDefaultsWrapper.swift: note: where 'Value' = 'Point'

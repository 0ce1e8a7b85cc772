import Foundation
import UserDefault

// Mistake: a typed key of a type the library cannot store (neither UserDefaultable, nor
// RawRepresentable with a storable raw value, nor Codable). One error, naming the type.
struct Point: Sendable { var x: Int }

extension UserDefaults.Keys {
  static let origin = Key<Point>("origin", default: Point(x: 0))
}

// expect: 9:23: error: initializer 'init(_:default:file:line:)' requires that 'Point' conform to 'UserDefaultable'
// expect: Sources/UserDefault/Keys/Key.swift: note: where 'Value' = 'Point'

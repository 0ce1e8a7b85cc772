import DefaultEntry
import Foundation

// Mistake: no type, an initial value instead of a default.
extension UserDefaults {
  @DefaultEntry var count = 2
}

// expect: 6:21: error: @DefaultEntry needs the type of 'count' written out and the initial value as the default: '@DefaultEntry(default: 2) var count: Type'

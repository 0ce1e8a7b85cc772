import DefaultEntry
import Foundation

// Mistake: default nil for a non-optional type.
extension UserDefaults {
  @DefaultEntry(default: nil)
  var count: Int
}

// expect: 6:26: error: the default is nil, which cannot be of type 'Int'; give a default of type 'Int'

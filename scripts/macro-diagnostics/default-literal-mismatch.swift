import DefaultEntry
import Foundation

// Mistake: a default literal of the wrong kind.
extension UserDefaults {
  @DefaultEntry(default: "one")
  var count: Int
}

// expect: 6:26: error: the default is a string literal, which cannot be of type 'Int'; give a default of type 'Int'

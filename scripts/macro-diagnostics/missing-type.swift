import DefaultEntry
import Foundation

// Mistake: no type and no initial value: the compiler reports it, once.
extension UserDefaults {
  @DefaultEntry(default: 1)
  var count
}

// expect: 7:7: error: type annotation missing in pattern

import DefaultEntry
import Foundation

// Mistake: an initial value instead of a default, no arguments.
extension UserDefaults {
  @DefaultEntry var count: Int = 3
}

// expect: 6:32: error: 'count' cannot have an initial value; write the default in the attribute: @DefaultEntry(default: 3)
// expect: 6:32: note: Move the initial value into the attribute as 'default:'

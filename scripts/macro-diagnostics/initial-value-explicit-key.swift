import DefaultEntry
import Foundation

// Mistake: an initial value instead of a default, with an explicit key.
extension UserDefaults {
  @DefaultEntry("com.example.count") var count: Int = 3
}

// expect: 6:53: error: 'count' cannot have an initial value; write the default in the attribute: @DefaultEntry(default: 3)
// expect: 6:53: note: Move the initial value into the attribute as 'default:'

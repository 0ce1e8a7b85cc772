import DefaultEntry
import Foundation

// Mistake: an initial value beside the default.
extension UserDefaults {
  @DefaultEntry(default: 1)
  var count: Int = 2
}

// expect: 7:18: error: 'count' cannot have an initial value; write the default in the attribute: @DefaultEntry(default: 2)
// expect: 7:18: note: Remove the initial value (give it as 'default:' instead)

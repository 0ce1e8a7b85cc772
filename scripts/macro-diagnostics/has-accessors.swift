import DefaultEntry
import Foundation

// Mistake: accessors written out.
extension UserDefaults {
  @DefaultEntry(default: 1)
  var count: Int {
    get { 1 }
    set {}
  }
}

// expect: 7:7: error: @DefaultEntry writes the getter and setter itself; remove the accessors

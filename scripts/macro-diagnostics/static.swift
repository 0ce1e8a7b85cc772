import DefaultEntry
import Foundation

// Mistake: static.
extension UserDefaults {
  @DefaultEntry(default: 1)
  static var count: Int
}

// expect: 7:3: error: @DefaultEntry declares an instance property of UserDefaults; remove 'static'
// expect: 7:3: note: Remove 'static'

import DefaultEntry
import Foundation

// swift-version: 5
// In the Swift 5 language mode a let is a warning, and the entry works, read-only.
extension UserDefaults {
  @DefaultEntry(default: 1)
  let count: Int
}

func readCount() -> Int { UserDefaults.standard.count + UserDefaults.countKey.name.count }

// expect: 8:3: note: @DefaultEntry needs 'var', not 'let': the entry is read and written
// expect: 8:3: note: Replace 'let' with 'var'
// expect: 8:7: warning: cannot expand accessor macro on variable declared with 'let'; this is an error in the Swift 6 language mode

import DefaultEntry
import Foundation

// Mistake: not a variable. The compiler refuses before the macro runs.
extension UserDefaults {
  @DefaultEntry(default: 1)
  func count() -> Int { 1 }
}

// expect: 6:3: error: 'accessor' macro cannot be attached to instance method ('count')

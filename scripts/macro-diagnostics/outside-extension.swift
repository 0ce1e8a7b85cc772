import DefaultEntry
import Foundation

// Mistake: not in an extension of UserDefaults.
struct Settings {
  @DefaultEntry(default: 1)
  var count: Int
}

// expect: 6:3: error: @DefaultEntry must be used inside 'extension UserDefaults { … }'; for other types use @UserDefault or a UserDefaults.Key

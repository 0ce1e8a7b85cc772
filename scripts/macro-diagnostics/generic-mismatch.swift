import DefaultEntry
import Foundation

// Mistake: the generic argument is not the declared type.
extension UserDefaults {
  @DefaultEntry<String> var x: Int?
}

// expect: 6:17: error: @DefaultEntry<String> does not match the declared type 'Int?'; make them the same

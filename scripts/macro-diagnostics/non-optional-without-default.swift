import DefaultEntry
import Foundation

// Mistake: a non-optional type and no default.
extension UserDefaults {
  @DefaultEntry<Int>
  var count: Int
}

// expect: 7:14: error: 'count' has the non-optional type 'Int' and no default; add 'default:' to the attribute or declare it as 'Int?'
// expect: 7:14: note: Make the type optional: 'Int?'

import DefaultEntry
import Foundation

// Mistake: a let. The compiler reports every accessor a macro adds to a let, so the macro
// adds the getter alone and reports its message as a note carrying the fix-it: one error.
extension UserDefaults {
  @DefaultEntry(default: 1)
  let count: Int
}

// expect: 8:3: note: @DefaultEntry needs 'var', not 'let': the entry is read and written
// expect: 8:3: note: Replace 'let' with 'var'
// expect: 8:7: error: cannot expand accessor macro on variable declared with 'let'
